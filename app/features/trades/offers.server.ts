import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable, type Tx } from "#app/db/sql.server.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { notices } from "#app/lib/notices.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import {
  cards,
  chatRooms,
  profiles,
  tradeOfferCards,
  tradeOffers,
} from "#app/db/schema/index.ts";
import {
  BUMP_INTERVAL_HOURS,
  MAX_CARDS_PER_SIDE,
  MAX_OPEN_OFFERS,
  OFFER_TTL_HOURS,
  POSTS_PER_HOUR,
  RESPONSES_PER_HOUR,
  pairsByRarity,
  type OfferStatus,
} from "./rules";
import { isBlockedEitherWay, notBlockedFor } from "#app/features/blocks/blocks.server.ts";
import { offerExpiredNow, offerOpenNow } from "#app/db/open-offers.ts";
import { matchingOffers } from "./matches.server";
import { assertCardsTradeable, loadTradeRules, offersClosedByRules } from "./trade-rules.server";
import { isCardTradeableAt } from "./trade-rules";
import { isOfferId, OFFER_COLUMNS, withCards, type OfferRow } from "./offer-views.server";
import { TradeError, type TradeErrorCode } from "./errors";
import type { OfferInput } from "./trades.schema";
import type { OfferView } from "./types";
import { recordProductEvent, recordProductEvents } from "#app/features/analytics/events.server.ts";

/**
 * Trade offers (docs/decisions/005): the owner's side — create, edit, close,
 * complete, bump (上げる), delete — reading one offer or one's own, and 交渉する (the chat room
 * of an offer). The board lives in board.server.ts, マッチ in matches.server.ts, reports in
 * features/moderation and blocks in features/blocks.
 */

export { TradeError };

// ---------------------------------------------------------------------------------------------
// Card validation

type CheckedCard = { cardId: string; count: number; rarity: string; name: string };

/**
 * Checks both sides against the catalogue: cards exist, the trade rules allow them now
 * (trade-rules.server.ts), they come from a pack the trade picker offers, no card sits on both sides, and
 * at least one given card shares a rarity with a wanted one (the game trades only like for like).
 */
export async function checkOfferCards(
  db: Db,
  input: Pick<OfferInput, "give" | "want"> & Partial<Pick<OfferInput, "giveAny" | "wantAny">>,
): Promise<{ give: CheckedCard[]; want: CheckedCard[] }> {
  // 何でも可 on one side (never both; the schema refuses it too): the named side alone is checked,
  // and any card of its rarities can come back, so a same-rarity pair always exists.
  const anySide = input.giveAny === true || input.wantAny === true;
  if (input.giveAny && input.wantAny) throw new TradeError("any_both_sides");
  if (!input.giveAny && input.give.length === 0) throw new TradeError("give_required");
  if (!input.wantAny && input.want.length === 0) throw new TradeError("want_required");
  const seen = new Set<string>();
  for (const side of [input.give, input.want]) {
    const inSide = new Set<string>();
    for (const card of side) {
      if (inSide.has(card.cardId)) throw new TradeError("duplicate_card");
      inSide.add(card.cardId);
    }
  }
  for (const card of input.give) seen.add(card.cardId);
  for (const card of input.want) if (seen.has(card.cardId)) throw new TradeError("same_card_both_sides");

  const ids = [...new Set([...input.give, ...input.want].map((c) => c.cardId))];
  const found = await rowsOf<{ id: string; name: string; rarity: string }>(
    db,
    sql`select c.id, c.name, c.rarity from ${cards} c where c.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  );
  const byId = new Map(found.map((row) => [row.id, row]));
  const check = (card: { cardId: string; count: number }): CheckedCard => {
    const row = byId.get(card.cardId);
    if (!row) throw new TradeError("unknown_card");
    return { cardId: row.id, count: card.count, rarity: row.rarity, name: row.name };
  };
  const give = input.give.map(check);
  const want = input.want.map(check);
  await assertCardsTradeable(db, [...give, ...want]);
  if (!anySide && pairsByRarity(give, want).length === 0) throw new TradeError("no_same_rarity_pair");
  return { give, want };
}

// ---------------------------------------------------------------------------------------------
// Rate limits

type RateAction = "post" | "respond";
const RATE_LIMITS: Record<RateAction, { limiter: ReturnType<typeof databaseLimit>; error: TradeErrorCode }> = {
  post: { limiter: databaseLimit({ name: "post", max: POSTS_PER_HOUR, window: "hour" }), error: "rate_limited_post" },
  respond: { limiter: databaseLimit({ name: "respond", max: RESPONSES_PER_HOUR, window: "hour" }), error: "rate_limited_respond" },
};

/**
 * Counts one action in the current hour's window with an atomic upsert. Call it inside the
 * transaction that does the action: when the limit is passed the error rolls both back.
 */
async function countAction(tx: Tx, userId: string, action: RateAction): Promise<void> {
  const { limiter, error } = RATE_LIMITS[action];
  if (!(await limiter.take(userId, tx))) throw new TradeError(error, { limit: limiter.limit.max });
}

// ---------------------------------------------------------------------------------------------
// Offers: the owner's side

async function lockActiveProfile(tx: Tx, userId: string, needFriendId: boolean) {
  const [profile] = await rowsOf<{ friend_id: string | null; suspended_at: Date | null }>(
    tx,
    sql`select friend_id, suspended_at from ${profiles} where user_id = ${userId} for update`,
  );
  if (!profile) throw new TradeError("friend_id_required");
  if (profile.suspended_at) throw new TradeError("suspended");
  if (needFriendId && !profile.friend_id) throw new TradeError("friend_id_required");
}

/** Marks the owner's open offers that passed their expiry as expired (expiry needs no cron). */
async function flipExpired(tx: Queryable, ownerId: string): Promise<void> {
  await tx.execute(
    sql`update ${tradeOffers} set status = 'expired', updated_at = now()
        where owner_id = ${ownerId} and ${offerExpiredNow("trade_offers")}`,
  );
}

async function openOfferCount(tx: Tx, ownerId: string, exceptId?: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${tradeOffers} o
        where o.owner_id = ${ownerId} and ${offerOpenNow()} ${exceptId ? sql`and o.id <> ${exceptId}` : sql``}`,
  );
  return Number(row?.n ?? 0);
}

async function touchActive(tx: Queryable, userId: string): Promise<void> {
  await tx.update(profiles).set({ lastActiveAt: sql`now()` }).where(eq(profiles.userId, userId));
}

/** Posts an offer: friend ID set, not suspended, ≤5 open, within the hourly limit, valid cards. */
/** An offer as the services take it: the schema's output, 何でも可 off when not said. */
type OfferDraft = Omit<OfferInput, "giveAny" | "wantAny"> & Partial<Pick<OfferInput, "giveAny" | "wantAny">>;

export async function createOffer(db: Db, userId: string, input: OfferDraft): Promise<{ id: string }> {
  const checked = await checkOfferCards(db, input);
  const created = await db.transaction(async (tx) => {
    // Locking the profile row serialises one user's posts, so two at once cannot both be the 5th.
    await lockActiveProfile(tx, userId, true);
    await flipExpired(tx, userId);
    if ((await openOfferCount(tx, userId)) >= MAX_OPEN_OFFERS) throw new TradeError("too_many_open", { max: MAX_OPEN_OFFERS });
    await countAction(tx, userId, "post");
    const [offer] = await tx
      .insert(tradeOffers)
      .values({
        ownerId: userId,
        comment: input.comment,
        giveAny: input.giveAny ?? false,
        wantAny: input.wantAny ?? false,
        expiresAt: sql`now() + make_interval(hours => ${OFFER_TTL_HOURS})`,
      })
      .returning({ id: tradeOffers.id });
    await tx.insert(tradeOfferCards).values([
      ...checked.give.map((c) => ({ offerId: offer.id, cardId: c.cardId, side: "give", count: c.count })),
      ...checked.want.map((c) => ({ offerId: offer.id, cardId: c.cardId, side: "want", count: c.count })),
    ]);
    await touchActive(tx, userId);
    await recordProductEvent(tx, "offer_posted", { offerId: offer.id, userId });
    const matched = await matchingOffers(tx, userId, { give: checked.give, want: checked.want, giveAny: input.giveAny ?? false, wantAny: input.wantAny ?? false });
    // The funnel's マッチ happens here: the new offer and every open offer it fits under マッチ's
    // rules have matched now (a 交渉する on an offer that fitted nothing is its match too).
    if (matched.length > 0) await recordProductEvents(tx, "matched", [offer.id, ...matched.map((m) => m.offerId)], userId);
    const matchedOwners = [...new Set(matched.map((m) => m.ownerId))];
    await notices().newOffer(tx, { offerId: offer.id, ownerId: userId, matchedOwners });
    return { id: offer.id };
  });
  publishChange("board");
  return created;
}

/** Loads an offer for an owner-only action: 404 when missing, 403 when someone else's. */
async function lockOwnOffer(tx: Tx, offerId: string, userId: string) {
  if (!isOfferId(offerId)) throw new TradeError("not_found");
  const [offer] = await rowsOf<{ owner_id: string; status: string; expired: boolean; can_bump: boolean }>(
    tx,
    sql`select owner_id, status, ${offerExpiredNow("trade_offers")} as expired,
          (bumped_at <= now() - make_interval(hours => ${BUMP_INTERVAL_HOURS})) as can_bump
        from ${tradeOffers} where id = ${offerId} for update`,
  );
  if (!offer) throw new TradeError("not_found");
  if (offer.owner_id !== userId) throw new TradeError("forbidden");
  const status = (offer.expired ? "expired" : offer.status) as OfferStatus;
  return { status, canBump: offer.can_bump };
}

/** Replaces the cards and comment of an open offer (owner only). Editing does not bump. */
export async function updateOffer(db: Db, userId: string, offerId: string, input: OfferDraft): Promise<void> {
  // Someone else's offer is refused before its cards are even looked at.
  await db.transaction((tx) => lockOwnOffer(tx, offerId, userId));
  const checked = await checkOfferCards(db, input);
  await db.transaction(async (tx) => {
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (offer.status !== "open") throw new TradeError("not_editable");
    await tx
      .update(tradeOffers)
      .set({ comment: input.comment, giveAny: input.giveAny ?? false, wantAny: input.wantAny ?? false, updatedAt: sql`now()` })
      .where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
    await tx.delete(tradeOfferCards).where(eq(tradeOfferCards.offerId, offerId));
    await tx.insert(tradeOfferCards).values([
      ...checked.give.map((c) => ({ offerId, cardId: c.cardId, side: "give", count: c.count })),
      ...checked.want.map((c) => ({ offerId, cardId: c.cardId, side: "want", count: c.count })),
    ]);
    await touchActive(tx, userId);
  });
  publishChange("board");
}

/** 終了: the owner takes an open, expired or negotiating offer off the board. */
export async function closeOffer(db: Db, userId: string, offerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (!["open", "expired", "negotiating"].includes(offer.status)) throw new TradeError("not_open");
    await tx
      .update(tradeOffers)
      .set({ status: "closed", updatedAt: sql`now()` })
      .where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
  });
  publishChange("board");
}

/**
 * 成立 marked by the owner alone (e.g. the trade happened elsewhere). Completed-trade counts go
 * up only when both sides confirm in the chat (completeTradeFromChat), so this one counts nothing.
 */
export async function markOfferCompleted(db: Db, userId: string, offerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (!["open", "expired", "negotiating"].includes(offer.status)) throw new TradeError("not_open");
    await tx
      .update(tradeOffers)
      .set({ status: "completed", completedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
  });
  publishChange("board");
}

/**
 * Pushes an open offer back to the top and restarts its 72 h window, once per 24 h. An expired
 * offer can be put back the same way, as long as the owner stays within 5 open offers.
 */
export async function bumpOffer(db: Db, userId: string, offerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockActiveProfile(tx, userId, false);
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (offer.status !== "open" && offer.status !== "expired") throw new TradeError("not_open");
    if (!offer.canBump) throw new TradeError("bump_too_soon", { hours: BUMP_INTERVAL_HOURS });
    if (offer.status === "expired" && (await openOfferCount(tx, userId, offerId)) >= MAX_OPEN_OFFERS) {
      throw new TradeError("too_many_open", { max: MAX_OPEN_OFFERS });
    }
    await tx
      .update(tradeOffers)
      .set({
        status: "open",
        bumpedAt: sql`now()`,
        expiresAt: sql`now() + make_interval(hours => ${OFFER_TTL_HOURS})`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
    await touchActive(tx, userId);
  });
  publishChange("board");
}

/**
 * Deletes an offer and its cards (owner only), but only while nobody has answered it: a chat room
 * is the partner's conversation and a report's evidence, so such an offer can only be closed
 * (chat_rooms.offer_id also restricts the delete in the database).
 */
export async function deleteOffer(db: Db, userId: string, offerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (offer.status === "negotiating") throw new TradeError("negotiating_cannot_delete");
    // The offer row is locked, so no room can be opened for it between this check and the delete.
    const [room] = await tx.select({ id: chatRooms.id }).from(chatRooms).where(eq(chatRooms.offerId, offerId)).limit(1);
    if (room) throw new TradeError("has_chat_cannot_delete");
    await tx.delete(tradeOffers).where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
  });
  publishChange("board");
}

// ---------------------------------------------------------------------------------------------
// Reading

/** One offer as `viewerId` may see it; null when missing, hidden by a block or by suspension. */
export async function getOffer(db: Db, offerId: string, viewerId?: string | null): Promise<OfferView | null> {
  if (!isOfferId(offerId)) return null;
  const rows = await rowsOf<OfferRow>(
    db,
    sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where o.id = ${offerId}
          and (o.owner_id = ${viewerId ?? ""} or (p.suspended_at is null and ${notBlockedFor(viewerId)}))`,
  );
  const [offer] = await withCards(db, rows);
  return offer ?? null;
}

/**
 * The 求 side a new offer starts with (offerPrefillFromParams): only cards that exist and may be
 * traded, shown in the trade picker's packs, at most MAX_CARDS_PER_SIDE; the rest are dropped,
 * so the form never starts with a card the board would refuse.
 */
export async function offerPrefill(
  db: Db,
  wanted: { cardId: string; count: number }[],
): Promise<{ cardId: string; name: string; nameEn: string; rarity: string; count: number; setCode: string | null; number: number | null }[]> {
  if (!wanted.length) return [];
  const [index, rules] = await Promise.all([cardIndex(db), loadTradeRules(db)]);
  const now = new Date();
  const prefill = [];
  for (const { cardId, count } of wanted) {
    const card = index.byId.get(cardId);
    if (!card || !isCardTradeableAt(rules, card, now)) continue;
    prefill.push({ cardId, name: card.name, nameEn: card.nameEn, rarity: card.rarity, count, setCode: card.setCode, number: card.number });
    if (prefill.length >= MAX_CARDS_PER_SIDE) break;
  }
  return prefill;
}

/** The user's own offers in every status (expired ones included), newest first. */
/** How many of their offers the owner's list shows. */
const OWN_OFFERS_LIMIT = 50;

/** The owner's offers, open and negotiating first, then newest bumped (OfferRow; readTogether can run it with others). */
export function ownOffersQuery(userId: string, limit = OWN_OFFERS_LIMIT): SQL {
  return sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
          where o.owner_id = ${userId}
          order by (o.status in ('open', 'negotiating')) desc, o.bumped_at desc, o.id desc
          limit ${limit}`;
}

export async function listOwnOffers(db: Db, userId: string, limit = OWN_OFFERS_LIMIT): Promise<OfferView[]> {
  return ownOffersFrom(db, userId, await rowsOf<OfferRow>(db, ownOffersQuery(userId, limit)), limit);
}

/** The owner's offer list from a read of ownOffersQuery (with the same limit). */
export async function ownOffersFrom(db: Db, userId: string, read: OfferRow[], limit = OWN_OFFERS_LIMIT): Promise<OfferView[]> {
  let rows = read;
  // An open offer past its time is marked expired before it is shown. Open and negotiating offers
  // sort first, so unless the list is full the read saw every open one: most views write nothing.
  if (rows.some((row) => row.expired) || rows.length >= limit) {
    await flipExpired(db, userId);
    rows = await rowsOf<OfferRow>(db, ownOffersQuery(userId, limit));
  }
  return withCards(db, rows);
}

// ---------------------------------------------------------------------------------------------
// Responding, blocking, reporting

/**
 * Who may answer an offer, checked before anything about it is said: it exists and its owner is
 * not suspended (else not_found), it is not their own, and neither player blocked the other. A
 * refusal about the offer's cards (a 何でも可 card outside the owner's list) comes only after
 * these, so a blocked player learns nothing of the owner's collection from it.
 */
async function checkResponder(db: Queryable, offer: { owner_id: string; suspended: boolean } | undefined, userId: string): Promise<void> {
  if (!offer || offer.suspended) throw new TradeError("not_found");
  if (offer.owner_id === userId) throw new TradeError("own_offer");
  if (await isBlockedEitherWay(db, userId, offer.owner_id)) throw new TradeError("blocked");
}

/** The checks of checkResponder for this offer, outside 交渉する's transaction (a card is checked after them). */
export async function checkMayRespond(db: Queryable, offerId: string, userId: string): Promise<void> {
  if (!isOfferId(offerId)) throw new TradeError("not_found");
  const [offer] = await rowsOf<{ owner_id: string; suspended: boolean }>(
    db,
    sql`select o.owner_id, (p.suspended_at is not null) as suspended
        from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id where o.id = ${offerId}`,
  );
  await checkResponder(db, offer, userId);
}

/**
 * 交渉する: creates — or reopens — the one chat room for this offer and this user. The unique
 * (offer_id, partner_id) constraint decides, not a read-then-write, so two racing requests get
 * the same room. Only new rooms count against the hourly responding limit.
 */
export async function openChatRoomForOffer(
  db: Db,
  { offerId, userId }: { offerId: string; userId: string },
): Promise<{ roomId: string; created: boolean }> {
  if (!isOfferId(offerId)) throw new TradeError("not_found");
  // A rule that closed one of its cards lets no new room open (docs/decisions/018); read before
  // the transaction, since the rules come through the cache and the card index.
  const offerCards = await db.select({ cardId: tradeOfferCards.cardId, side: tradeOfferCards.side }).from(tradeOfferCards).where(eq(tradeOfferCards.offerId, offerId));
  const ruleClosed =
    (await offersClosedByRules(db, [{ id: offerId, give: offerCards.filter((c) => c.side === "give"), want: offerCards.filter((c) => c.side === "want") }])).size > 0;
  return db.transaction(async (tx) => {
    await lockActiveProfile(tx, userId, true);
    const [offer] = await rowsOf<{ owner_id: string; status: string; expired: boolean; suspended: boolean }>(
      tx,
      sql`select o.owner_id, o.status, ${offerExpiredNow()} as expired,
            (p.suspended_at is not null) as suspended
          from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id where o.id = ${offerId}`,
    );
    await checkResponder(tx, offer, userId);
    const isOpen = offer.status === "open" && !offer.expired;
    if (!isOpen || ruleClosed) {
      // A closed or expired offer, or one a rule closed, still lets an existing conversation continue.
      const [existing] = await tx
        .select({ id: chatRooms.id })
        .from(chatRooms)
        .where(and(eq(chatRooms.offerId, offerId), eq(chatRooms.partnerId, userId)));
      if (!existing) throw new TradeError(isOpen ? "rule_closed" : "not_open");
      return { roomId: existing.id, created: false };
    }
    const [room] = await rowsOf<{ id: string; created: boolean }>(
      tx,
      sql`insert into ${chatRooms} (offer_id, owner_id, partner_id)
          values (${offerId}, ${offer.owner_id}, ${userId})
          on conflict (offer_id, partner_id) do update set cancelled_at = null
          returning id, (xmax = 0) as created`,
    );
    if (room.created) await countAction(tx, userId, "respond");
    if (room.created) await recordProductEvent(tx, "matched", { offerId, userId, roomId: room.id });
    if (room.created) await notices().offerResponse(tx, { roomId: room.id, offerId, ownerId: offer.owner_id, responderId: userId });
    await touchActive(tx, userId);
    return { roomId: room.id, created: Boolean(room.created) };
  });
}


/**
 * A proposal (トレード候補, docs/decisions/041): the owner of an offer opens its room with the one
 * player it was made for, the same room 交渉する would open had that player pressed it (one room
 * per offer and partner, counted against the owner's hourly responding limit). The partner hears
 * of it through the room's first message, which the caller sends with the chat's service.
 */
export async function openChatRoomWithPartner(
  db: Db,
  { offerId, ownerId, partnerId }: { offerId: string; ownerId: string; partnerId: string },
): Promise<{ roomId: string; created: boolean }> {
  if (!isOfferId(offerId)) throw new TradeError("not_found");
  if (ownerId === partnerId) throw new TradeError("own_offer");
  return db.transaction(async (tx) => {
    await lockActiveProfile(tx, ownerId, true);
    const [offer] = await rowsOf<{ owner_id: string; open: boolean }>(
      tx,
      sql`select o.owner_id, ${offerOpenNow()} as open from ${tradeOffers} o where o.id = ${offerId} for update`,
    );
    if (!offer) throw new TradeError("not_found");
    if (offer.owner_id !== ownerId) throw new TradeError("forbidden");
    if (!offer.open) throw new TradeError("not_open");
    const [partner] = await rowsOf<{ ok: boolean }>(tx, sql`select (suspended_at is null and deleted_at is null) as ok from ${profiles} where user_id = ${partnerId}`);
    if (!partner?.ok) throw new TradeError("not_found");
    if (await isBlockedEitherWay(tx, ownerId, partnerId)) throw new TradeError("blocked");
    const [room] = await rowsOf<{ id: string; created: boolean }>(
      tx,
      sql`insert into ${chatRooms} (offer_id, owner_id, partner_id)
          values (${offerId}, ${ownerId}, ${partnerId})
          on conflict (offer_id, partner_id) do update set cancelled_at = null
          returning id, (xmax = 0) as created`,
    );
    if (room.created) await countAction(tx, ownerId, "respond");
    if (room.created) await recordProductEvent(tx, "matched", { offerId, userId: ownerId, roomId: room.id });
    await touchActive(tx, ownerId);
    return { roomId: room.id, created: Boolean(room.created) };
  });
}
