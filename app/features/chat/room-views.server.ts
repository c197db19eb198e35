import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { chatMessages, chatReadCursors, chatRooms, profiles, tradeOffers, users } from "#app/db/schema/index.ts";
import { blockersBetween } from "#app/features/blocks/blocks.server.ts";
import { requireRoomMember } from "./chat.server";
import type { RoomState, TradeProgress } from "./protocol";
import { otherParticipant, progressOf } from "./room-trade.server";
import { chosenCardOf, chosenOfferCard, namedCards, offerCards, ruleClosedOfferCards, type OfferCard, type RoomOffer } from "./room-offer.server";

/**
 * What the chat pages show around the messages: a room's view (offer, partner, progress, read
 * position, blocks), the state both participants' screens share, and a player's list of rooms (the room page, /profile, /notifications).
 * Sending, reading and trade steps are the chat service's (chat.server.ts).
 */

const displayNameOf = sql<string>`coalesce(${profiles.displayName}, ${users.name})`;

async function people(db: Queryable, ids: string[]) {
  const rows = await db
    .select({
      id: users.id,
      displayName: displayNameOf,
      friendId: profiles.friendId,
      completedTrades: sql<number>`coalesce(${profiles.completedTrades}, 0)`,
      left: sql<boolean>`${profiles.deletedAt} is not null`,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, { ...r, completedTrades: Number(r.completedTrades), left: Boolean(r.left) }]));
}

export type ChatRoomView = {
  id: string;
  role: "owner" | "partner";
  me: { id: string; displayName: string; friendId: string | null };
  /** `left`: the partner deleted their account; the room is read-only for good. */
  partner: { id: string; displayName: string; completedTrades: number; friendId: string | null; left: boolean };
  offer: RoomOffer;
  /** The card the partner named for the offer's 何でも可 side, on that side; null until named. */
  chosenCard: OfferCard | null;
  progress: TradeProgress;
  lastSeq: number;
  lastReadSeq: number;
  blockedByMe: boolean;
  blockedMe: boolean;
};

/**
 * Everything the room page shows around the messages. The partner's friend ID is present only
 * once both sides pressed 条件合意 — before that it never leaves the server.
 */
export async function getRoomView(db: Db, roomId: string, userId: string): Promise<ChatRoomView> {
  const room = await requireRoomMember(db, roomId, userId);
  const partnerId = otherParticipant(room, userId);
  const [offer] = await db
    .select({ id: tradeOffers.id, ownerId: tradeOffers.ownerId, status: tradeOffers.status, comment: tradeOffers.comment, giveAny: tradeOffers.giveAny, wantAny: tradeOffers.wantAny })
    .from(tradeOffers)
    .where(eq(tradeOffers.id, room.offerId));
  const [cardsByOffer, chosenCard, who, cursor, blockers] = await Promise.all([
    offerCards(db, [room.offerId]),
    chosenCardOf(db, room.chosenCardId, offer),
    people(db, [userId, partnerId]),
    db
      .select({ lastReadSeq: chatReadCursors.lastReadSeq })
      .from(chatReadCursors)
      .where(and(eq(chatReadCursors.roomId, room.id), eq(chatReadCursors.userId, userId))),
    blockersBetween(db, userId, partnerId),
  ]);
  const blockedByMe = blockers.includes(userId);
  const blockedMe = blockers.includes(partnerId);
  const progress = progressOf(room);
  const me = who.get(userId);
  const partner = who.get(partnerId);
  return {
    id: room.id,
    role: room.ownerId === userId ? "owner" : "partner",
    me: { id: userId, displayName: me?.displayName ?? "", friendId: me?.friendId ?? null },
    partner: {
      id: partnerId,
      displayName: partner?.displayName ?? "",
      completedTrades: partner?.completedTrades ?? 0,
      left: partner?.left ?? false,
      friendId: progress.agreed ? (partner?.friendId ?? null) : null,
    },
    offer: { ...offer, cards: cardsByOffer.get(room.offerId) ?? [] },
    chosenCard,
    progress,
    lastSeq: room.lastSeq,
    lastReadSeq: cursor[0]?.lastReadSeq ?? 0,
    blockedByMe,
    blockedMe,
  };
}

export type ChatRoomSummary = {
  id: string;
  partnerName: string;
  offerId: string;
  offerStatus: string;
  /** Whose offer it is, so the list can label the cards from the reader's side. */
  role: "owner" | "partner";
  offerCards: OfferCard[];
  /** The offer's 何でも可 sides (they name no card). */
  giveAny: boolean;
  wantAny: boolean;
  lastMessage: { kind: "text" | "system"; body: string; senderId: string | null; createdAt: string } | null;
  unread: number;
};

/** A row of roomListQuery (as rowsOf or readTogether hands it over: a timestamp may be a Date or its ISO text). */
export type RoomListRow = {
  id: string;
  owner_id: string;
  partner_id: string;
  offer_id: string;
  offer_status: string;
  give_any: boolean;
  want_any: boolean;
  chosen_card_id: string | null;
  last_kind: string | null;
  last_body: string | null;
  last_sender: string | null;
  last_at: Date | string | null;
  unread: number | string;
};

/** The user's rooms, most recent activity first, with the offer's status, the last message and the unread count. */
export function roomListQuery(userId: string, limit = 50): SQL {
  return sql`select r.id, r.owner_id, r.partner_id, r.offer_id, o.status as offer_status, o.give_any, o.want_any, r.chosen_card_id,
        m.kind as last_kind, m.body as last_body, m.sender_id as last_sender, m.created_at as last_at,
        (select count(*)::int from ${chatMessages} u
          where u.room_id = r.id
            and u.seq > coalesce((select c.last_read_seq from ${chatReadCursors} c where c.room_id = r.id and c.user_id = ${userId}), 0)
            and u.sender_id is distinct from ${userId}) as unread
      from ${chatRooms} r
      join ${tradeOffers} o on o.id = r.offer_id
      left join ${chatMessages} m on m.room_id = r.id and m.seq = r.last_seq
      where r.owner_id = ${userId} or r.partner_id = ${userId}
      order by coalesce(r.last_message_at, r.created_at) desc, r.id desc
      limit ${limit}`;
}

/** The rooms of roomListQuery with their partners' names and their offers' cards. */
export async function roomSummaries(db: Db, userId: string, rows: readonly RoomListRow[]): Promise<ChatRoomSummary[]> {
  if (rows.length === 0) return [];
  const rooms = rows.map((r) => ({ ...r, ownerId: r.owner_id, partnerId: r.partner_id }));
  const partnerIds = [...new Set(rooms.map((r) => otherParticipant(r, userId)))];
  const [who, cardsByOffer, named] = await Promise.all([
    people(db, partnerIds),
    offerCards(db, [...new Set(rooms.map((r) => r.offer_id))]),
    namedCards(db, rooms.flatMap((r) => (r.chosen_card_id ? [r.chosen_card_id] : []))),
  ]);
  return rooms.map((r) => ({
    id: r.id,
    partnerName: who.get(otherParticipant(r, userId))?.displayName ?? "",
    offerId: r.offer_id,
    offerStatus: r.offer_status,
    role: r.owner_id === userId ? ("owner" as const) : ("partner" as const),
    // The card named for a 何でも可 side reads as that side's card.
    offerCards: [...(cardsByOffer.get(r.offer_id) ?? []), ...[chosenOfferCard(named, r.chosen_card_id, { giveAny: Boolean(r.give_any), wantAny: Boolean(r.want_any) })].filter((c) => c !== null)],
    giveAny: Boolean(r.give_any),
    wantAny: Boolean(r.want_any),
    lastMessage:
      r.last_body !== null && r.last_at !== null
        ? { kind: r.last_kind === "system" ? "system" : "text", body: r.last_body, senderId: r.last_sender, createdAt: new Date(r.last_at).toISOString() }
        : null,
    unread: Number(r.unread),
  }));
}

/** The user's rooms, most recent activity first, with the partner, offer, last message and unread count. */
export async function listRoomsForUser(db: Db, userId: string, limit = 50): Promise<ChatRoomSummary[]> {
  return roomSummaries(db, userId, await rowsOf<RoomListRow>(db, roomListQuery(userId, limit)));
}

/**
 * What both participants' screens need after a step or a block: broadcast to the room as is,
 * so it holds only what both may see (friend IDs once both agreed), and whether the trade
 * rules close one of the offer's cards now (the steps wait until it reopens).
 */
export async function getRoomState(db: Db, roomId: string, userId: string): Promise<RoomState> {
  const room = await requireRoomMember(db, roomId, userId);
  const progress = progressOf(room);
  const [offer] = await db.select({ status: tradeOffers.status, giveAny: tradeOffers.giveAny, wantAny: tradeOffers.wantAny }).from(tradeOffers).where(eq(tradeOffers.id, room.offerId));
  const [chosenCard, blockerIds, who, ruleClosedCards] = await Promise.all([
    chosenCardOf(db, room.chosenCardId, offer ?? { giveAny: false, wantAny: false }),
    blockersBetween(db, room.ownerId, room.partnerId),
    // Friend IDs shown once both agreed stay shown after a rule closes a card: the two may have
    // traded in the game already, and hiding them again would only stop them finishing or talking.
    progress.agreed ? people(db, [room.ownerId, room.partnerId]) : Promise.resolve(null),
    ruleClosedOfferCards(db, room.offerId, new Date(), room.chosenCardId),
  ]);
  return {
    roomId: room.id,
    progress,
    offerStatus: offer?.status ?? "closed",
    blockerIds,
    friendIds: who
      ? { [room.ownerId]: who.get(room.ownerId)?.friendId ?? null, [room.partnerId]: who.get(room.partnerId)?.friendId ?? null }
      : null,
    ruleClosedCards,
    chosenCard,
  };
}
