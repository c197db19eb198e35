import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Queryable, type Tx } from "#app/db/sql.server.ts";
import { chatMessages, chatRooms, tradeOffers } from "#app/db/schema/index.ts";
import { cancelNegotiationFromChat } from "#app/features/trades/negotiation.server.ts";
import type { ChatMessage, TradeProgress } from "./protocol";

/**
 * A room's rows as the chat stores them: messages appended with the room's next sequence number,
 * the trade steps' progress, and ending a room's trade (キャンセル). The chat service and the
 * blocks service (a block ends a 取引中 trade) both write through these.
 */
export type RoomRow = typeof chatRooms.$inferSelect;

export const messageColumns = {
  id: chatMessages.id,
  roomId: chatMessages.roomId,
  seq: chatMessages.seq,
  senderId: chatMessages.senderId,
  kind: chatMessages.kind,
  body: chatMessages.body,
  clientId: chatMessages.clientId,
  createdAt: chatMessages.createdAt,
};

export function toMessage(row: { id: string; roomId: string; seq: number; senderId: string | null; kind: string; body: string; clientId: string | null; createdAt: Date | string }): ChatMessage {
  return {
    ...row,
    kind: row.kind === "system" ? "system" : "text",
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function progressOf(room: RoomRow): TradeProgress {
  return {
    ownerAgreed: room.ownerAgreedAt !== null,
    partnerAgreed: room.partnerAgreedAt !== null,
    agreed: room.ownerAgreedAt !== null && room.partnerAgreedAt !== null,
    friendRequested: room.friendRequestedAt !== null,
    gameTradeRequested: room.gameTradeRequestedAt !== null,
    ownerCompleted: room.ownerCompletedAt !== null,
    partnerCompleted: room.partnerCompletedAt !== null,
    completed: room.completedAt !== null,
    cancelled: room.cancelledAt !== null,
  };
}

export function otherParticipant(room: { ownerId: string; partnerId: string }, userId: string): string {
  return room.ownerId === userId ? room.partnerId : room.ownerId;
}

export type MessageRow = { id: string; room_id: string; seq: number; sender_id: string | null; kind: string; body: string; client_id: string | null; created_at: Date | string };

export const fromRow = (r: MessageRow): ChatMessage =>
  toMessage({ id: r.id, roomId: r.room_id, seq: Number(r.seq), senderId: r.sender_id, kind: r.kind, body: r.body, clientId: r.client_id, createdAt: r.created_at });

/**
 * Appends a message in one statement: the room row's update hands out the next sequence number
 * and holds the row lock until commit, so concurrent senders in one room are serialised and
 * numbers never repeat or go backwards. One statement is one transaction: if the insert fails
 * (a duplicate clientId racing), the increment is undone too, so no number is skipped.
 */
export async function appendMessage(
  db: Queryable,
  roomId: string,
  message: { senderId: string | null; kind: "text" | "system"; clientId: string | null; body: string },
): Promise<ChatMessage> {
  const [row] = await rowsOf<MessageRow>(db, sql`with ${appendCtes(roomId, message)} select * from stored`);
  return fromRow(row);
}

/**
 * appendMessage as common table expressions (`next`, then `stored`, the message row) for a
 * statement that writes more alongside the message (the send's notice).
 */
export function appendCtes(roomId: string, message: { senderId: string | null; kind: "text" | "system"; clientId: string | null; body: string }): SQL {
  return sql`next as (
          update chat_rooms set last_seq = last_seq + 1, last_message_at = now(),
            owner_replied_at = case when owner_replied_at is null and owner_id = ${message.senderId} then now() else owner_replied_at end
          where id = ${roomId} returning last_seq
        ),
        stored as (
          insert into chat_messages (room_id, seq, sender_id, kind, client_id, body)
          select ${roomId}, next.last_seq, ${message.senderId}, ${message.kind}, ${message.clientId}, ${message.body} from next
          returning id, room_id, seq, sender_id, kind, body, client_id, created_at
        )`;
}

/**
 * Ends the trade of a room (キャンセル), inside the caller's transaction with the room locked:
 * the steps start over if the partner presses 交渉する again (that clears cancelled_at), and the
 * offer goes back on the board if it was being traded with this partner.
 */
export async function cancelRoomTrade(tx: Tx, room: RoomRow, userId: string): Promise<{ message: ChatMessage; offerReopened: boolean }> {
  await tx
    .update(chatRooms)
    .set({
      cancelledAt: new Date(),
      ownerAgreedAt: null,
      partnerAgreedAt: null,
      friendRequestedAt: null,
      gameTradeRequestedAt: null,
      ownerCompletedAt: null,
      partnerCompletedAt: null,
    })
    .where(eq(chatRooms.id, room.id));
  const offerReopened = await cancelNegotiationFromChat(tx, { offerId: room.offerId, partnerId: room.partnerId });
  const message = await appendMessage(tx, room.id, { senderId: userId, kind: "system", clientId: null, body: "cancel" });
  return { message, offerReopened };
}

/**
 * A block ends every 取引中 trade between the two players, inside the block's transaction, and
 * answers each room's system message (registered as the blocks' trade ending at start-up).
 */
export async function endTradesBetween(tx: Tx, blockerId: string, blockedId: string): Promise<{ roomId: string; message: ChatMessage }[]> {
  // Rooms between the two; the same lock order as a trade step (room, then offer).
  const rooms: RoomRow[] = await tx
    .select()
    .from(chatRooms)
    .where(
      or(
        and(eq(chatRooms.ownerId, blockerId), eq(chatRooms.partnerId, blockedId)),
        and(eq(chatRooms.ownerId, blockedId), eq(chatRooms.partnerId, blockerId)),
      ),
    )
    .orderBy(chatRooms.id)
    .for("update");
  if (!rooms.length) return [];
  const negotiating = await tx
    .select({ id: tradeOffers.id, partnerId: tradeOffers.partnerId })
    .from(tradeOffers)
    .where(and(inArray(tradeOffers.id, rooms.map((room) => room.offerId)), eq(tradeOffers.status, "negotiating")))
    .for("update");
  const ended: { roomId: string; message: ChatMessage }[] = [];
  for (const room of rooms) {
    const inTrade = negotiating.some((offer) => offer.id === room.offerId && offer.partnerId === room.partnerId);
    const finished = room.cancelledAt !== null || (room.ownerCompletedAt !== null && room.partnerCompletedAt !== null);
    if (!inTrade || finished) continue;
    const { message } = await cancelRoomTrade(tx, room, blockerId);
    ended.push({ roomId: room.id, message });
  }
  return ended;
}
