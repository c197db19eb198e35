import { and, asc, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { isUniqueViolation, rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { cards, chatMessages, chatReadCursors, chatRooms, profiles, tradeOfferCards, tradeOffers } from "#app/db/schema/index.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import { completeTradeFromChat, startNegotiationFromChat } from "#app/features/trades/negotiation.server.ts";
import { checkMayRespond, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { isOfferId } from "#app/features/trades/offer-views.server.ts";
import { cardFaceOf, cardIndex } from "#app/features/cards/card-index.server.ts";
import type { CardListItem } from "#app/features/cards/types.ts";
import { anyCardChoices } from "#app/features/collection/trade-sides.server.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import type { ChatMessage, RoomState, TradeProgress } from "./protocol";
import { blockUser, isBlockedEitherWay, unblockUser } from "#app/features/blocks/blocks.server.ts";
import { ChatError, type ChatErrorCode } from "./errors";
import { appendCtes, appendMessage, cancelRoomTrade, fromRow, messageColumns, otherParticipant, progressOf, toMessage, type MessageRow, type RoomRow } from "./room-trade.server";
import { MESSAGE_MAX_LENGTH, MESSAGE_PAGE_SIZE, normaliseBody, RoomIdSchema, type TradeStep } from "./chat.schema";
import { ruleClosedOfferCards, type OfferCard, type RoomOffer } from "./room-offer.server";
import { recordProductEvent, recordRoomOpened } from "#app/features/analytics/events.server.ts";
import { notices } from "#app/lib/notices.server.ts";

/**
 * The trade chat service (docs/architecture.md "Trade chat"). Socket.IO handlers, resource routes, pages and tests
 * all call these functions with plain arguments. Rules that matter for reliability:
 * - a message is stored (with the room's next sequence number) before anyone hears of it;
 * - a repeated clientId from the same sender returns the stored message instead of a new one;
 * - a room that is not yours does not exist (not_found), whatever the reason.
 */

export { ChatError, type ChatErrorCode };
export { otherParticipant, progressOf };

export type { ChatMessage, RoomState, TradeProgress };
export type { OfferCard, RoomOffer };





/** The room when userId is one of its two participants; null otherwise (and for malformed ids). */
async function findRoomForMember(db: Queryable, roomId: string, userId: string): Promise<{ room: RoomRow; suspended: boolean } | null> {
  if (!RoomIdSchema.safeParse(roomId).success) return null;
  const [found] = await db
    .select({ room: chatRooms, suspendedAt: profiles.suspendedAt })
    .from(chatRooms)
    .leftJoin(profiles, eq(profiles.userId, userId))
    .where(and(eq(chatRooms.id, roomId), or(eq(chatRooms.ownerId, userId), eq(chatRooms.partnerId, userId))));
  return found ? { room: found.room, suspended: found.suspendedAt !== null } : null;
}

/** Whether the user deleted their account (the row stays, as 退会したユーザー). */
async function hasLeft(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db.select({ deletedAt: profiles.deletedAt }).from(profiles).where(eq(profiles.userId, userId));
  return Boolean(row?.deletedAt);
}

/**
 * The room for one of its participants who is not suspended. Suspension is checked here, not
 * only at the socket handshake, because a socket opened before the suspension stays connected.
 */
export async function requireRoomMember(db: Queryable, roomId: string, userId: string): Promise<RoomRow> {
  const found = await findRoomForMember(db, roomId, userId);
  if (!found) throw new ChatError("not_found");
  if (found.suspended) throw new ChatError("suspended");
  return found.room;
}







async function findByClientId(db: Queryable, roomId: string, senderId: string, clientId: string): Promise<ChatMessage | null> {
  const [row] = await db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.roomId, roomId), eq(chatMessages.senderId, senderId), eq(chatMessages.clientId, clientId)));
  return row ? toMessage(row) : null;
}

export type SendInput = { roomId: string; userId: string; clientId: string; body: string };
export type SendResult = { message: ChatMessage; created: boolean; recipientId: string };

/**
 * Stores a text message. Idempotent by (room, sender, clientId): a retry of a stored message
 * returns it with created=false and is never rate limited, so a client retrying after a lost
 * ack always converges. `allowSend` (the rate limiter) is asked only for a genuinely new message.
 */
export async function sendMessage(db: Db, input: SendInput, allowSend?: () => Promise<boolean>): Promise<SendResult> {
  if (!RoomIdSchema.safeParse(input.roomId).success) throw new ChatError("not_found");
  // Membership, a stored copy of this send, and whether the other side blocked the sender: one
  // round trip, since this runs for every message.
  const [found] = await rowsOf<MessageRow & { owner_id: string; partner_id: string; last_seq: number; suspended: boolean; deleted: boolean; partner_deleted: boolean; blocked_me: boolean; message_id: string | null }>(
    db,
    sql`select r.owner_id, r.partner_id, r.last_seq,
          exists (select 1 from profiles p where p.user_id = ${input.userId} and p.suspended_at is not null) as suspended,
          exists (select 1 from profiles p where p.user_id = ${input.userId} and p.deleted_at is not null) as deleted,
          exists (select 1 from profiles p
                  where p.user_id = case when r.owner_id = ${input.userId} then r.partner_id else r.owner_id end
                    and p.deleted_at is not null) as partner_deleted,
          exists (select 1 from blocks b
                  where b.blocker_id = case when r.owner_id = ${input.userId} then r.partner_id else r.owner_id end
                    and b.blocked_id = ${input.userId}) as blocked_me,
          m.id as message_id, m.id, m.room_id, m.seq, m.sender_id, m.kind, m.body, m.client_id, m.created_at
        from chat_rooms r
        left join chat_messages m on m.room_id = r.id and m.sender_id = ${input.userId} and m.client_id = ${input.clientId}
        where r.id = ${input.roomId} and (r.owner_id = ${input.userId} or r.partner_id = ${input.userId})`,
    { prepared: "chat_send_lookup" },
  );
  // A deleted account (its row stays as 退会したユーザー) writes nothing more, whatever still holds its id.
  if (!found || found.deleted) throw new ChatError("not_found");
  // Before the stored-copy shortcut: a suspended user gets nothing back from an old socket.
  if (found.suspended) throw new ChatError("suspended");
  const recipientId = otherParticipant({ ownerId: found.owner_id, partnerId: found.partner_id }, input.userId);
  if (found.message_id) return { message: fromRow(found), created: false, recipientId };

  const body = normaliseBody(input.body);
  if (body.length === 0) throw new ChatError("empty");
  if ([...body].length > MESSAGE_MAX_LENGTH) throw new ChatError("too_long", { max: MESSAGE_MAX_LENGTH });
  // A blocked user can read the room but no longer write to the one who blocked them.
  if (found.blocked_me) throw new ChatError("blocked");
  // Nobody reads a deleted account's rooms: the room stays to be read, and takes nothing more.
  if (found.partner_deleted) throw new ChatError("partner_left");
  if (allowSend && !(await allowSend())) throw new ChatError("rate_limited");

  try {
    const text = { senderId: input.userId, kind: "text" as const, clientId: input.clientId, body };
    const notice = { roomId: input.roomId, senderId: input.userId, recipientId };
    if (Number(found.last_seq) === 0) {
      // A room's first message also records that the room opened: a transaction, once per room.
      const { message, committed } = await db.transaction(async (tx) => {
        const stored = await appendMessage(tx, input.roomId, text);
        const noticed = await notices().chatMessage(tx, notice);
        if (stored.seq === 1) await recordRoomOpened(tx, input.roomId, input.userId);
        return { message: stored, committed: noticed };
      });
      committed();
      return { message, created: true, recipientId };
    }
    // Every later message: the message and the recipient's notification in one statement (one
    // round trip instead of begin, two statements and commit; as atomic).
    const noticed = notices().chatMessageCtes(notice, "stored");
    const [row] = await rowsOf<MessageRow & Record<string, unknown>>(db, sql`with ${appendCtes(input.roomId, text)}, ${noticed.ctes} select stored.*, ${noticed.columns} from stored`, {
      prepared: "chat_send",
    });
    noticed.written(row);
    return { message: fromRow(row), created: true, recipientId };
  } catch (err) {
    // Two copies of the same send raced: the loser's statement rolled back; return the winner.
    if (!isUniqueViolation(err)) throw err;
    const stored = await findByClientId(db, input.roomId, input.userId, input.clientId);
    if (!stored) throw err;
    return { message: stored, created: false, recipientId };
  }
}

/**
 * Messages in sequence order: after `afterSeq` (sync after a reconnect; up to `limit`), or the
 * page before `beforeSeq` (older history), or the latest page when neither is given.
 */
export async function listMessages(
  db: Db,
  roomId: string,
  userId: string,
  options: { afterSeq?: number; beforeSeq?: number; limit?: number } = {},
): Promise<ChatMessage[]> {
  const room = await requireRoomMember(db, roomId, userId);
  const limit = Math.min(Math.max(options.limit ?? MESSAGE_PAGE_SIZE, 1), 200);
  if (options.afterSeq !== undefined) {
    const rows = await db
      .select(messageColumns)
      .from(chatMessages)
      .where(and(eq(chatMessages.roomId, room.id), gt(chatMessages.seq, options.afterSeq)))
      .orderBy(asc(chatMessages.seq))
      .limit(limit);
    return rows.map(toMessage);
  }
  const rows = await db
    .select(messageColumns)
    .from(chatMessages)
    .where(
      options.beforeSeq !== undefined
        ? and(eq(chatMessages.roomId, room.id), lt(chatMessages.seq, options.beforeSeq))
        : eq(chatMessages.roomId, room.id),
    )
    .orderBy(desc(chatMessages.seq))
    .limit(limit);
  return rows.reverse().map(toMessage);
}

/** Moves the reader's cursor forward (never back) to `seq`, capped at the room's last message. */
export async function markRead(db: Db, roomId: string, userId: string, seq: number): Promise<number> {
  const room = await requireRoomMember(db, roomId, userId);
  const upTo = Math.max(0, Math.min(Math.floor(seq), room.lastSeq));
  await db
    .insert(chatReadCursors)
    .values({ roomId: room.id, userId, lastReadSeq: upTo })
    .onConflictDoUpdate({
      target: [chatReadCursors.roomId, chatReadCursors.userId],
      set: { lastReadSeq: sql`greatest(${chatReadCursors.lastReadSeq}, ${upTo})` },
    });
  await notices().roomRead(db, room.id, userId);
  return upTo;
}

/** Unread messages (from the other side, including their trade steps) over all the user's rooms. */
export async function countUnread(db: Db, userId: string): Promise<number> {
  // Per room through the (room_id, seq) index, so the cost follows the user's rooms and unread
  // messages, not the size of chat_messages (this runs for every message delivered).
  const [row] = await rowsOf<{ n: number | string | null }>(
    db,
    sql`select coalesce(sum((
          select count(*) from chat_messages m
          where m.room_id = r.id
            and m.seq > coalesce((select c.last_read_seq from chat_read_cursors c where c.room_id = r.id and c.user_id = ${userId}), 0)
            and m.sender_id is distinct from ${userId}
        )), 0) as n
        from chat_rooms r
        where r.owner_id = ${userId} or r.partner_id = ${userId}`,
    { prepared: "chat_unread" },
  );
  return Number(row?.n ?? 0);
}

export type StepResult = { messages: ChatMessage[]; progress: TradeProgress; offerStatus: string; recipientId: string };

/**
 * A trade step pressed by one participant, posted as a system message both sides see.
 * Order: 条件合意 (both) → フレンド申請済み → ゲーム内でトレード申請済み → 取引完了 (both) → 成立.
 * Pressing a step already done is a no-op (no second message). When both complete, the offer
 * becomes completed and both completed-trade counts go up, in the same transaction.
 */
export async function applyTradeStep(db: Db, input: { roomId: string; userId: string; step: TradeStep }): Promise<StepResult> {
  const result = await applyTradeStepInTransaction(db, input);
  // An offer may have changed status (取引中, 募集中 again, 成立): board caches drop, after commit.
  publishChange("board");
  return result;
}

async function applyTradeStepInTransaction(db: Db, input: { roomId: string; userId: string; step: TradeStep }): Promise<StepResult> {
  const checked = await requireRoomMember(db, input.roomId, input.userId);
  const partnerId = otherParticipant(checked, input.userId);
  // Deletion already cancelled the trade; no step (キャンセル included) is left to take with nobody.
  if (await hasLeft(db, partnerId)) throw new ChatError("partner_left");
  // A block stops the trade going forward, but either side can still end it: キャンセル puts
  // the offer back on the board instead of leaving it 取引中 with someone who cannot answer.
  if (input.step !== "cancel" && (await isBlockedEitherWay(db, input.userId, partnerId))) {
    throw new ChatError("blocked");
  }
  // Read before the transaction: the rules and the card index are cached reads on `db`, and
  // PGlite has one connection, which the transaction holds.
  const ruleClosed = input.step === "cancel" ? [] : await ruleClosedOfferCards(db, checked.offerId, new Date(), checked.chosenCardId);
  return db.transaction(async (tx) => {
    // Lock the room so two presses (one per side) cannot both miss each other's half.
    const [room] = await tx.select().from(chatRooms).where(eq(chatRooms.id, checked.id)).for("update");
    const [offer] = await tx
      .select({ id: tradeOffers.id, status: tradeOffers.status, partnerId: tradeOffers.partnerId, giveAny: tradeOffers.giveAny, wantAny: tradeOffers.wantAny })
      .from(tradeOffers)
      .where(eq(tradeOffers.id, room.offerId))
      .for("update");
    const isOwner = room.ownerId === input.userId;
    const now = new Date();
    const p = progressOf(room);
    if (p.completed || p.cancelled) throw new ChatError("step_not_allowed");
    const offerTaken = offer.status === "negotiating" && offer.partnerId !== null && offer.partnerId !== room.partnerId;
    if (input.step !== "cancel" && (offerTaken || ["completed", "closed", "expired"].includes(offer.status))) {
      throw new ChatError("offer_unavailable");
    }
    // The board's rule at the time of the step (docs/decisions/018): while a card of the offer is
    // closed, only キャンセル goes through. 条件合意 would show friend IDs for a trade the game
    // refuses. Steps already taken stay as they are, friend IDs already shown included (the two
    // may have traded in the game before the change, and they still need to talk). 取引完了 is
    // refused too: the site cannot see whether the game trade came first, and a completed-trade
    // count is a trust signal; the owner's 成立 on the offer page (it counts nothing) remains for
    // that case. Nothing is written, so the steps come back by themselves when the card reopens.
    // The refusal names no card (its text is written in the reader's language when answered; the
    // room's notice names the cards in it).
    if (ruleClosed.length > 0) throw new ChatError("not_tradeable");
    const messages: ChatMessage[] = [];
    const post = async (body: string) => {
      messages.push(await appendMessage(tx, room.id, { senderId: input.userId, kind: "system", clientId: null, body }));
      await notices().tradeStep(tx, { roomId: room.id, actorId: input.userId, recipientId: partnerId, step: body });
    };
    const setRoom = (values: Partial<typeof chatRooms.$inferInsert>) =>
      tx.update(chatRooms).set(values).where(eq(chatRooms.id, room.id));
    let offerStatus = offer.status;

    switch (input.step) {
      case "agree": {
        if (isOwner ? p.ownerAgreed : p.partnerAgreed) break;
        // A 何でも可 side is agreed on once the partner has named its card (chooseAnyCard).
        if (offer.giveAny || offer.wantAny ? room.chosenCardId === null : false) throw new ChatError("card_not_chosen");
        await setRoom(isOwner ? { ownerAgreedAt: now } : { partnerAgreedAt: now });
        await post("agree");
        if (isOwner ? p.partnerAgreed : p.ownerAgreed) {
          // Both agreed: the offer is now being traded with this partner (取引中).
          if (await startNegotiationFromChat(tx, { offerId: offer.id, partnerId: room.partnerId })) {
            offerStatus = "negotiating";
          } else if (!(offer.status === "negotiating" && offer.partnerId === room.partnerId)) {
            // Expired (possibly not yet marked so) or taken meanwhile: the agreement is rolled back.
            throw new ChatError("offer_unavailable");
          }
          await post("agreed");
          await recordProductEvent(tx, "terms_agreed", { offerId: offer.id, userId: input.userId, roomId: room.id });
        }
        break;
      }
      case "friend_requested": {
        if (!p.agreed) throw new ChatError("step_not_allowed");
        if (p.friendRequested) break;
        await setRoom({ friendRequestedAt: now });
        await post("friend_requested");
        await recordProductEvent(tx, "friend_request_sent", { offerId: offer.id, userId: input.userId, roomId: room.id });
        break;
      }
      case "game_trade_requested": {
        if (!p.friendRequested) throw new ChatError("step_not_allowed");
        if (p.gameTradeRequested) break;
        await setRoom({ gameTradeRequestedAt: now });
        await post("game_trade_requested");
        await recordProductEvent(tx, "game_trade_sent", { offerId: offer.id, userId: input.userId, roomId: room.id });
        break;
      }
      case "complete": {
        if (!p.gameTradeRequested) throw new ChatError("step_not_allowed");
        if (isOwner ? p.ownerCompleted : p.partnerCompleted) break;
        const both = isOwner ? p.partnerCompleted : p.ownerCompleted;
        await setRoom({ ...(isOwner ? { ownerCompletedAt: now } : { partnerCompletedAt: now }), ...(both ? { completedAt: now } : {}) });
        await post("complete");
        if (both) {
          // The trade board's own rule moves the offer to 成立 and counts the trade for both.
          const done = await completeTradeFromChat(tx, { offerId: offer.id, partnerId: room.partnerId });
          if (!done.completed) throw new ChatError("offer_unavailable");
          offerStatus = "completed";
          await post("completed");
          await recordProductEvent(tx, "trade_completed", { offerId: offer.id, userId: input.userId, roomId: room.id });
        }
        break;
      }
      case "cancel": {
        const cancelled = await cancelRoomTrade(tx, room, input.userId);
        messages.push(cancelled.message);
        await recordProductEvent(tx, "trade_cancelled", { offerId: offer.id, userId: input.userId, roomId: room.id });
        await notices().tradeStep(tx, { roomId: room.id, actorId: input.userId, recipientId: partnerId, step: "cancel" });
        if (cancelled.offerReopened) offerStatus = "open";
        break;
      }
    }
    const [after] = await tx.select().from(chatRooms).where(eq(chatRooms.id, room.id));
    return { messages, progress: progressOf(after), offerStatus, recipientId: partnerId };
  });
}

export type ChooseCardResult = { message: ChatMessage; recipientId: string };

/**
 * Whether `cardId` may be named for the 何でも可 side of offer `offerId`: a card of a rarity the
 * offer's named side holds (a trade is one rarity for the same rarity), tradeable now, and — when
 * the owner shares their collection for trades — one of the owner's real choices (their spare
 * cards when the offer gives 何でも可, their wanted cards when it wants 何でも可; an owner whose list
 * holds none of those rarities leaves any card open, as before). docs/decisions/045.
 */
export async function checkAnyCardChoice(db: Db, offerId: string, cardId: string): Promise<{ id: string }> {
  const [offer] = await db
    .select({ ownerId: tradeOffers.ownerId, giveAny: tradeOffers.giveAny, wantAny: tradeOffers.wantAny })
    .from(tradeOffers)
    .where(eq(tradeOffers.id, offerId));
  if (!offer || !(offer.giveAny || offer.wantAny)) throw new ChatError("step_not_allowed");
  const namedSide = offer.wantAny ? "give" : "want";
  const named = await db
    .select({ rarity: cards.rarity })
    .from(tradeOfferCards)
    .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
    .where(and(eq(tradeOfferCards.offerId, offerId), eq(tradeOfferCards.side, namedSide)));
  const [card] = await db.select({ id: cards.id, rarity: cards.rarity }).from(cards).where(eq(cards.id, cardId));
  if (!card) throw new ChatError("card_not_found");
  if (!named.some((n) => n.rarity === card.rarity)) throw new ChatError("card_wrong_rarity");
  // Read outside any transaction: the rules are a cached read on `db` (PGlite has one connection).
  const state = (await cardTradeability(db, [card.id])).get(card.id);
  if (!state?.tradeable) throw new ChatError("card_not_tradeable");
  const choices = await anyCardChoices(db, await cardIndex(db), offer.ownerId, { ...offer, rarities: named.map((n) => n.rarity) });
  if (choices.shared && choices.cards.length > 0 && !choices.cards.some((c) => c.id === card.id)) {
    throw new ChatError(offer.giveAny ? "card_not_owner_spare" : "card_not_owner_wanted");
  }
  return card;
}

/** At most this many of the owner's cards are offered as buttons in the room (the search finds the rest). */
export const ROOM_ANY_CHOICES_SHOWN = 60;

/**
 * The owner's real cards for the offer's 何でも可 side, as the room's partner may still name one
 * (not yet agreed): null when the reader is the owner, the offer has no 何でも可 side, or the owner
 * shares no list for it (then any card of the rarity, as before). docs/decisions/045.
 */
export async function roomAnyChoices(
  db: Db,
  view: { role: "owner" | "partner"; offer: { id: string; ownerId: string; giveAny: boolean; wantAny: boolean }; progress: TradeProgress },
): Promise<CardListItem[] | null> {
  if (view.role !== "partner" || !(view.offer.giveAny || view.offer.wantAny) || view.progress.agreed || view.progress.completed) return null;
  const named = await db
    .select({ rarity: cards.rarity })
    .from(tradeOfferCards)
    .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
    .where(and(eq(tradeOfferCards.offerId, view.offer.id), eq(tradeOfferCards.side, view.offer.wantAny ? "give" : "want")));
  const choices = await anyCardChoices(db, await cardIndex(db), view.offer.ownerId, { ...view.offer, rarities: named.map((n) => n.rarity) });
  if (!choices.shared || choices.cards.length === 0) return null;
  return choices.cards.slice(0, ROOM_ANY_CHOICES_SHOWN).map(cardFaceOf);
}

/**
 * The partner names the card of the offer's 何でも可 side: the card they give when the offer wants
 * 何でも可, the card they receive when it gives 何でも可 (checkAnyCardChoice says which cards may
 * be named). Named before both agree; naming another card takes back an agreement already
 * pressed, so nobody is held to a card they did not see. Posted as a system message and notified
 * like a step.
 */
export async function chooseAnyCard(db: Db, input: { roomId: string; userId: string; cardId: string }): Promise<ChooseCardResult> {
  const checked = await requireRoomMember(db, input.roomId, input.userId);
  if (checked.partnerId !== input.userId) throw new ChatError("step_not_allowed");
  const ownerId = checked.ownerId;
  if (await hasLeft(db, ownerId)) throw new ChatError("partner_left");
  if (await isBlockedEitherWay(db, input.userId, ownerId)) throw new ChatError("blocked");
  const card = await checkAnyCardChoice(db, checked.offerId, input.cardId);
  return db.transaction(async (tx) => {
    const [room] = await tx.select().from(chatRooms).where(eq(chatRooms.id, checked.id)).for("update");
    const p = progressOf(room);
    if (p.agreed || p.completed || p.cancelled) throw new ChatError("step_not_allowed");
    await tx.update(chatRooms).set({ chosenCardId: card.id, ownerAgreedAt: null, partnerAgreedAt: null }).where(eq(chatRooms.id, room.id));
    const message = await appendMessage(tx, room.id, { senderId: input.userId, kind: "system", clientId: null, body: "card_chosen" });
    await notices().tradeStep(tx, { roomId: room.id, actorId: input.userId, recipientId: ownerId, step: "card_chosen" });
    return { message, recipientId: ownerId };
  });
}

/**
 * 交渉する with the card already chosen on the offer page (a 何でも可 offer whose owner shares their
 * collection): who may answer is checked first (blocks, suspension, their own offer), then the
 * choice, so a refused card opens no room and a blocked player learns nothing of the list; then the board's one
 * 交渉する opens the room, and the card is named there as chooseAnyCard names it — the room's
 * system line and both players' offer panels show it. A room that already stood keeps its card
 * (it is changed in the room, live for both).
 */
export async function respondWithAnyCard(db: Db, input: { offerId: string; userId: string; cardId: string }): Promise<{ roomId: string; created: boolean; message: ChatMessage | null }> {
  if (!isOfferId(input.offerId)) throw new ChatError("not_found");
  // Who may answer first: a blocked player's card is refused as blocked, whichever card it is.
  await checkMayRespond(db, input.offerId, input.userId);
  await checkAnyCardChoice(db, input.offerId, input.cardId);
  const opened = await openChatRoomForOffer(db, { offerId: input.offerId, userId: input.userId });
  // A room that already stood (an earlier press, a second tap, a room opened without a card) is
  // where the card is changed: there both players see the change live. Only the press that opened
  // the room names its card, so two taps name it once.
  if (!opened.created) return { ...opened, message: null };
  const { message } = await chooseAnyCard(db, { roomId: opened.roomId, userId: input.userId, cardId: input.cardId });
  return { ...opened, message };
}

/**
 * Block the other participant of a room (the blocks service's one rule): they can still read it
 * but no longer write or press steps, and a 取引中 trade between the two ends with the usual
 * キャンセル message. The messages of this room are returned for the room's live view.
 */
export async function blockRoomPartner(db: Db, roomId: string, userId: string): Promise<{ blockedId: string; messages: ChatMessage[] }> {
  const room = await requireRoomMember(db, roomId, userId);
  if (await hasLeft(db, otherParticipant(room, userId))) throw new ChatError("partner_left");
  const { blockedId, cancelled } = await blockUser(db, userId, otherParticipant(room, userId));
  return { blockedId, messages: cancelled.filter((c) => c.roomId === room.id).map((c) => c.message) };
}

export async function unblockRoomPartner(db: Db, roomId: string, userId: string): Promise<{ blockedId: string }> {
  const room = await requireRoomMember(db, roomId, userId);
  if (await hasLeft(db, otherParticipant(room, userId))) throw new ChatError("partner_left");
  const blockedId = otherParticipant(room, userId);
  await unblockUser(db, userId, blockedId);
  return { blockedId };
}
