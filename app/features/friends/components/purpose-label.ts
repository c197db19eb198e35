import type { FriendsMessageKey } from "#app/features/friends/messages.ts";
import type { FriendPurpose } from "#app/features/friends/rules.ts";

/** Each purpose's label in the friends catalogue. */
export const PURPOSE_KEYS: Record<FriendPurpose, FriendsMessageKey> = {
  trade: "purposeTrade",
  challenge: "purposeChallenge",
  battle: "purposeBattle",
  other: "purposeOther",
};
