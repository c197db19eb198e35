import type { FriendsMessageKey } from "../messages";
import type { FriendPurpose } from "../rules";

/** Each purpose's label in the friends catalogue. */
export const PURPOSE_KEYS: Record<FriendPurpose, FriendsMessageKey> = {
  trade: "purposeTrade",
  challenge: "purposeChallenge",
  battle: "purposeBattle",
  other: "purposeOther",
};
