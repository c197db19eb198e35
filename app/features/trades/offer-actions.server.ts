import type { Db } from "#app/db/client.server.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { TradeError } from "./errors";
import { parseOfferInput, parseReportInput } from "./http.server";
import { reportOffer } from "#app/features/moderation/moderation.server.ts";
import { bumpOffer, closeOffer, deleteOffer, getOffer, markOfferCompleted, openChatRoomForOffer, updateOffer } from "./offers.server";

/**
 * What a signed-in user can do to one offer, for both the offer page's form (`intent`) and
 * `PATCH|POST|DELETE /api/trades/{id}`: one dispatcher, so a rule cannot differ by path.
 * Input is validated here (refusals are TradeErrors); each route only maps the outcome to a
 * redirect or a JSON answer.
 */
export const OFFER_ACTIONS = ["respond", "save", "bump", "close", "complete", "delete", "report", "block"] as const;
export type OfferAction = (typeof OFFER_ACTIONS)[number];

export type OfferActionOutcome =
  | { action: "respond"; roomId: string; created: boolean }
  | { action: "report"; reportId: string }
  | { action: Exclude<OfferAction, "respond" | "report"> };

export function isOfferAction(value: unknown): value is OfferAction {
  return (OFFER_ACTIONS as readonly unknown[]).includes(value);
}

/**
 * Runs `action` on offer `offerId` for `userId`. `input` is the edited offer for "save"
 * (`{ give, want, comment }`) and `{ reason }` for "report".
 */
export async function runOfferAction(db: Db, userId: string, offerId: string, action: OfferAction, input: unknown = {}): Promise<OfferActionOutcome> {
  switch (action) {
    case "respond":
      return { action, ...(await openChatRoomForOffer(db, { offerId, userId })) };
    case "save": {
      await updateOffer(db, userId, offerId, parseOfferInput(input));
      return { action };
    }
    case "bump":
      await bumpOffer(db, userId, offerId);
      return { action };
    case "close":
      await closeOffer(db, userId, offerId);
      return { action };
    case "complete":
      await markOfferCompleted(db, userId, offerId);
      return { action };
    case "delete":
      await deleteOffer(db, userId, offerId);
      return { action };
    case "report": {
      const { reason } = parseReportInput({ reason: (input as { reason?: unknown } | null)?.reason ?? "" });
      return { action, ...(await reportOffer(db, userId, offerId, reason)) };
    }
    case "block": {
      // Blocking from an offer blocks its owner (and ends a 取引中 trade with them).
      const offer = await getOffer(db, offerId, userId);
      if (!offer) throw new TradeError("not_found");
      await blockUser(db, userId, offer.ownerId);
      return { action };
    }
  }
}
