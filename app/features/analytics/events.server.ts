import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/sql.server.ts";
import { analyticsEvents } from "#app/db/schema/index.ts";

/**
 * Product events: written by the trade and chat services inside the transaction of the change
 * itself, so an event exists exactly when the change committed. They carry the offer (and room)
 * and the acting user — personal data of signed-in users, kept for the raw-event retention
 * period to measure the trade funnel (stated in the privacy policy).
 */
export const PRODUCT_EVENTS = [
  "offer_posted",
  "matched",
  "room_opened",
  "terms_agreed",
  "friend_request_sent",
  "game_trade_sent",
  "trade_completed",
  "trade_cancelled",
] as const;
export type ProductEvent = (typeof PRODUCT_EVENTS)[number];

export async function recordProductEvent(
  tx: Queryable,
  kind: ProductEvent,
  event: { offerId: string; userId: string; roomId?: string | null },
): Promise<void> {
  await tx.insert(analyticsEvents).values({ kind, offerId: event.offerId, userId: event.userId, roomId: event.roomId ?? null });
}

/** One event of a kind for each of several offers, by one acting user, in one statement. */
export async function recordProductEvents(tx: Queryable, kind: ProductEvent, offerIds: readonly string[], userId: string): Promise<void> {
  if (offerIds.length === 0) return;
  await tx.insert(analyticsEvents).values(offerIds.map((offerId) => ({ kind, offerId, userId, roomId: null })));
}

/**
 * A room's first message: the conversation is open. Called right after the message's own
 * one-statement transaction (chat.server.ts sendMessage), with the offer read from the room.
 */
export async function recordRoomOpened(db: Queryable, roomId: string, userId: string): Promise<void> {
  await db.execute(
    sql`insert into analytics_events (kind, offer_id, room_id, user_id) select 'room_opened', offer_id, id, ${userId} from chat_rooms where id = ${roomId}`,
  );
}
