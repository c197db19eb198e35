import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { rowsOf, type Queryable, type Tx } from "../../db/sql.server";
import { boardVersion, noteBoardChange } from "../../lib/board-version.server";
import { CARD_COLUMNS, cardIndex, rememberCatalogueList } from "../cards/card-index.server";
import {
  cards,
  chatMessages,
  chatRooms,
  profiles,
  rarities,
  reports,
  tradeOfferCards,
  tradeOffers,
} from "../../db/schema/index";
import {
  BOARD_PAGE_SIZE,
  BUMP_INTERVAL_HOURS,
  MATCH_LIMIT,
  MATCH_PAGE_SIZE,
  MAX_CARDS_PER_SIDE,
  MAX_OPEN_OFFERS,
  OFFER_TTL_HOURS,
  POSTS_PER_HOUR,
  REPORTS_PER_HOUR,
  RESPONSES_PER_HOUR,
  TRADE_EXCLUDED_PACKS,
  pairsByRarity,
  type OfferStatus,
} from "./rules";
import { isBlockedEitherWay, notBlockedFor } from "../blocks/blocks.server";
import { OPEN_NOW } from "./negotiation.server";
import { TradeError, type TradeErrorCode } from "./errors";

export { TradeError };
import type { BoardFilters, OfferInput } from "./trades.schema";
import type { BoardPage, MatchListItem, MatchPage, MatchView, OfferCardView, OfferChipView, OfferListItem, OfferView, ReportView } from "./types";

// ---------------------------------------------------------------------------------------------
// Views

export type { BoardPage, MatchView, OfferCardView, OfferView };


const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

type OfferRow = {
  id: string;
  owner_id: string;
  status: string;
  comment: string;
  partner_id: string | null;
  created_at: Date | string;
  bumped_at: Date | string;
  expires_at: Date | string;
  bump_key: string;
  expired: boolean;
  can_bump_at: Date | string;
  display_name: string;
  completed_trades: number;
  last_active_at: Date | string;
  /** [side, cardId, count] of each card, from OFFER_COLUMNS. */
  offer_cards: [string, string, number][];
};

// Columns every offer list selects; `bump_key` is the exact (microsecond) cursor value.
const OFFER_COLUMNS = sql`
  o.id, o.owner_id, o.status, o.comment, o.partner_id, o.created_at, o.bumped_at, o.expires_at,
  to_char(o.bumped_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as bump_key,
  (o.status = 'open' and o.expires_at <= now()) as expired,
  o.bumped_at + make_interval(hours => ${BUMP_INTERVAL_HOURS}) as can_bump_at,
  p.display_name, p.completed_trades, p.last_active_at,
  (select coalesce(json_agg(json_build_array(c.side, c.card_id, c.count)), '[]'::json)
   from ${tradeOfferCards} c where c.offer_id = o.id) as offer_cards`;



type CardInfo = Omit<OfferCardView, "cardId" | "count"> & { rank: number };

/**
 * Name, rarity and picture of the cards of some offers: from the in-process card index (the
 * catalogue changes only on import), so an offer list is one query. A card the index does not
 * know yet (imported on another instance a moment ago) is read from the database.
 */
async function cardInfo(db: Db, ids: Set<string>): Promise<Map<string, CardInfo>> {
  const index = await cardIndex(db);
  const found = new Map<string, CardInfo>();
  const missing: string[] = [];
  for (const id of ids) {
    const card = index.byId.get(id);
    if (card) found.set(id, card);
    else missing.push(id);
  }
  if (missing.length) {
    const rows = await db
      .select({
        ...CARD_COLUMNS,
        rank: sql<number>`coalesce(${rarities.rank}, 0)`,
      })
      .from(cards)
      .leftJoin(rarities, eq(rarities.code, cards.rarity))
      .where(inArray(cards.id, missing));
    for (const row of rows) found.set(row.id, { ...row, rank: Number(row.rank) });
  }
  return found;
}

/** Highest rarity first, then set and number: how every offer lists its cards. */
function compareOfferCards(a: CardInfo & { cardId: string }, b: CardInfo & { cardId: string }): number {
  return (
    b.rank - a.rank ||
    // As PostgreSQL orders them: a card without a set code after those with one.
    ((a.setCode ?? "\uffff") < (b.setCode ?? "\uffff") ? -1 : (a.setCode ?? "\uffff") > (b.setCode ?? "\uffff") ? 1 : 0) ||
    (a.number ?? Number.MAX_SAFE_INTEGER) - (b.number ?? Number.MAX_SAFE_INTEGER) ||
    (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0)
  );
}

function toView(row: OfferRow, sides: { give: OfferCardView[]; want: OfferCardView[] } | undefined): OfferView {
  const status = (row.expired ? "expired" : row.status) as OfferStatus;
  return {
    id: row.id,
    ownerId: row.owner_id,
    ownerName: row.display_name,
    ownerCompletedTrades: Number(row.completed_trades),
    ownerLastActiveAt: iso(row.last_active_at),
    status,
    comment: row.comment,
    partnerId: row.partner_id,
    give: sides?.give ?? [],
    want: sides?.want ?? [],
    createdAt: iso(row.created_at),
    bumpedAt: iso(row.bumped_at),
    expiresAt: iso(row.expires_at),
    nextBumpAt: status === "open" || status === "expired" ? iso(row.can_bump_at) : null,
  };
}

async function withCards(db: Db, rows: OfferRow[]): Promise<OfferView[]> {
  const ids = new Set<string>();
  for (const row of rows) for (const [, cardId] of row.offer_cards) ids.add(cardId);
  const info = ids.size ? await cardInfo(db, ids) : new Map<string, CardInfo>();
  return rows.map((row) => {
    const listed = row.offer_cards
      .filter(([, cardId]) => info.has(cardId))
      .map(([side, cardId, count]) => ({ side, cardId, count: Number(count), ...info.get(cardId)! }))
      .sort(compareOfferCards);
    const view = (side: string): OfferCardView[] =>
      listed
        .filter((c) => c.side === side)
        .map((c) => ({
          cardId: c.cardId,
          count: c.count,
          name: c.name,
          nameEn: c.nameEn,
          rarity: c.rarity,
          imageUrl: c.imageUrl,
          imageFile: c.imageFile,
          storedImage: c.storedImage,
          element: c.element,
          cardType: c.cardType,
          stage: c.stage,
          hp: c.hp,
          setCode: c.setCode,
          number: c.number,
        }));
    return toView(row, { give: view("give"), want: view("want") });
  });
}

// ---------------------------------------------------------------------------------------------
// Cursors: the exact bumped_at (microseconds, UTC) and id of the last offer shown.

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(bumpKey: string, id: string): string {
  return Buffer.from(`${bumpKey}|${id}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): { bumpKey: string; id: string } {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const [bumpKey, id] = parts;
  if (parts.length !== 2 || !bumpKey || !id || !isRealTime(bumpKey) || !UUID.test(id)) throw new TradeError("invalid_cursor");
  return { bumpKey, id };
}

/**
 * The shape alone lets month 13 or 25:00 through to PostgreSQL's `::timestamp` cast, which then
 * fails the whole query: the time must name a real instant (it survives a round trip).
 */
function isRealTime(bumpKey: string): boolean {
  if (!CURSOR_TIME.test(bumpKey)) return false;
  const [year, month, day, hour, minute, second, micros] = bumpKey.split(/[-T:.]/).map(Number);
  if (year < 1000) return false;
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(micros / 1000)));
  return time.toISOString().slice(0, 19) === bumpKey.slice(0, 19);
}

export const isOfferId = (value: string) => UUID.test(value);

// ---------------------------------------------------------------------------------------------
// Card validation

type CheckedCard = { cardId: string; count: number; rarity: string; name: string };

/**
 * Checks both sides against the catalogue: cards exist, their rarity is tradeable (the admin-
 * editable flag), they come from a pack the trade picker offers, no card sits on both sides, and
 * at least one given card shares a rarity with a wanted one (the game trades only like for like).
 */
export async function checkOfferCards(db: Db, input: Pick<OfferInput, "give" | "want">): Promise<{ give: CheckedCard[]; want: CheckedCard[] }> {
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
  const excluded = TRADE_EXCLUDED_PACKS.length ? TRADE_EXCLUDED_PACKS : ["-"];
  const found = await rowsOf<{ id: string; name: string; rarity: string; tradeable: boolean; listed: boolean }>(
    db,
    sql`select c.id, c.name, c.rarity, coalesce(r.tradeable, false) as tradeable,
          exists (select 1 from card_packs cp where cp.card_id = c.id
                  and cp.pack_id not in (${sql.join(excluded.map((p) => sql`${p}`), sql`, `)})) as listed
        from ${cards} c left join ${rarities} r on r.code = c.rarity
        where c.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  );
  const byId = new Map(found.map((row) => [row.id, row]));
  const check = (card: { cardId: string; count: number }): CheckedCard => {
    const row = byId.get(card.cardId);
    if (!row) throw new TradeError("unknown_card");
    if (!row.tradeable || !row.listed) throw new TradeError("not_tradeable", { name: row.name });
    return { cardId: row.id, count: card.count, rarity: row.rarity, name: row.name };
  };
  const give = input.give.map(check);
  const want = input.want.map(check);
  if (pairsByRarity(give, want).length === 0) throw new TradeError("no_same_rarity_pair");
  return { give, want };
}

// ---------------------------------------------------------------------------------------------
// Rate limits

type RateAction = "post" | "respond" | "report";
const RATE_LIMITS: Record<RateAction, { perHour: number; error: TradeErrorCode }> = {
  post: { perHour: POSTS_PER_HOUR, error: "rate_limited_post" },
  respond: { perHour: RESPONSES_PER_HOUR, error: "rate_limited_respond" },
  report: { perHour: REPORTS_PER_HOUR, error: "rate_limited_report" },
};

/**
 * Counts one action in the current hour's window with an atomic upsert. Call it inside the
 * transaction that does the action: when the limit is passed the error rolls both back.
 */
async function countAction(tx: Tx, userId: string, action: RateAction): Promise<void> {
  const [row] = await rowsOf<{ count: number }>(
    tx,
    sql`insert into trade_rate_limits (user_id, action, window_start, count)
        values (${userId}, ${action}, date_trunc('hour', now()), 1)
        on conflict (user_id, action, window_start) do update set count = trade_rate_limits.count + 1
        returning count`,
  );
  if (Number(row?.count ?? 0) > RATE_LIMITS[action].perHour) {
    throw new TradeError(RATE_LIMITS[action].error, { limit: RATE_LIMITS[action].perHour });
  }
  await tx.execute(
    sql`delete from trade_rate_limits where user_id = ${userId} and window_start < now() - interval '1 day'`,
  );
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
        where owner_id = ${ownerId} and status = 'open' and expires_at <= now()`,
  );
}

async function openOfferCount(tx: Tx, ownerId: string, exceptId?: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${tradeOffers} o
        where o.owner_id = ${ownerId} and ${OPEN_NOW} ${exceptId ? sql`and o.id <> ${exceptId}` : sql``}`,
  );
  return Number(row?.n ?? 0);
}

async function touchActive(tx: Queryable, userId: string): Promise<void> {
  await tx.update(profiles).set({ lastActiveAt: sql`now()` }).where(eq(profiles.userId, userId));
}

/** Posts an offer: friend ID set, not suspended, ≤5 open, within the hourly limit, valid cards. */
export async function createOffer(db: Db, userId: string, input: OfferInput): Promise<{ id: string }> {
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
        expiresAt: sql`now() + make_interval(hours => ${OFFER_TTL_HOURS})`,
      })
      .returning({ id: tradeOffers.id });
    await tx.insert(tradeOfferCards).values([
      ...checked.give.map((c) => ({ offerId: offer.id, cardId: c.cardId, side: "give", count: c.count })),
      ...checked.want.map((c) => ({ offerId: offer.id, cardId: c.cardId, side: "want", count: c.count })),
    ]);
    await touchActive(tx, userId);
    return { id: offer.id };
  });
  noteBoardChange();
  return created;
}

/** Loads an offer for an owner-only action: 404 when missing, 403 when someone else's. */
async function lockOwnOffer(tx: Tx, offerId: string, userId: string) {
  if (!isOfferId(offerId)) throw new TradeError("not_found");
  const [offer] = await rowsOf<{ owner_id: string; status: string; expired: boolean; can_bump: boolean }>(
    tx,
    sql`select owner_id, status, (status = 'open' and expires_at <= now()) as expired,
          (bumped_at <= now() - make_interval(hours => ${BUMP_INTERVAL_HOURS})) as can_bump
        from ${tradeOffers} where id = ${offerId} for update`,
  );
  if (!offer) throw new TradeError("not_found");
  if (offer.owner_id !== userId) throw new TradeError("forbidden");
  const status = (offer.expired ? "expired" : offer.status) as OfferStatus;
  return { status, canBump: offer.can_bump };
}

/** Replaces the cards and comment of an open offer (owner only). Editing does not bump. */
export async function updateOffer(db: Db, userId: string, offerId: string, input: OfferInput): Promise<void> {
  // Someone else's offer is refused before its cards are even looked at.
  await db.transaction((tx) => lockOwnOffer(tx, offerId, userId));
  const checked = await checkOfferCards(db, input);
  await db.transaction(async (tx) => {
    const offer = await lockOwnOffer(tx, offerId, userId);
    if (offer.status !== "open") throw new TradeError("not_editable");
    await tx
      .update(tradeOffers)
      .set({ comment: input.comment, updatedAt: sql`now()` })
      .where(and(eq(tradeOffers.id, offerId), eq(tradeOffers.ownerId, userId)));
    await tx.delete(tradeOfferCards).where(eq(tradeOfferCards.offerId, offerId));
    await tx.insert(tradeOfferCards).values([
      ...checked.give.map((c) => ({ offerId, cardId: c.cardId, side: "give", count: c.count })),
      ...checked.want.map((c) => ({ offerId, cardId: c.cardId, side: "want", count: c.count })),
    ]);
    await touchActive(tx, userId);
  });
  noteBoardChange();
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
  noteBoardChange();
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
  noteBoardChange();
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
  noteBoardChange();
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
  noteBoardChange();
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
 * The board: open, unexpired offers, most recently posted or bumped first, 20 a page with a
 * cursor. Filters: a card given, any of several cards given, a card wanted, a pack (either side),
 * a rarity (either side).
 */
export async function listBoard(
  db: Db,
  options: { viewerId?: string | null; filters?: BoardFilters; cursor?: string | null; limit?: number } = {},
): Promise<BoardPage> {
  const limit = Math.min(Math.max(options.limit ?? BOARD_PAGE_SIZE, 1), 50);
  const f = options.filters ?? {};
  const where: SQL[] = [OPEN_NOW, sql`p.suspended_at is null`, notBlockedFor(options.viewerId)];
  if (f.give) {
    where.push(sql`exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'give' and c.card_id = ${f.give})`);
  }
  if (f.giveAny?.length) {
    const ids = sql.join(f.giveAny.map((id) => sql`${id}`), sql`, `);
    where.push(sql`exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'give' and c.card_id in (${ids}))`);
  }
  if (f.want) {
    where.push(sql`exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'want' and c.card_id = ${f.want})`);
  }
  if (f.pack) {
    where.push(sql`exists (select 1 from ${tradeOfferCards} c join card_packs cp on cp.card_id = c.card_id
                           where c.offer_id = o.id and cp.pack_id = ${f.pack})`);
  }
  if (f.rarity) {
    where.push(sql`exists (select 1 from ${tradeOfferCards} c join ${cards} k on k.id = c.card_id
                           where c.offer_id = o.id and k.rarity = ${f.rarity})`);
  }
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor);
    where.push(sql`(o.bumped_at, o.id) < ((${cursor.bumpKey}::timestamp at time zone 'UTC'), ${cursor.id}::uuid)`);
  }
  const rows = await rowsOf<OfferRow>(
    db,
    sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where ${sql.join(where, sql` and `)}
        -- NULLS LAST to match trade_offers_board_idx exactly: the first page is an index walk.
        order by o.bumped_at desc nulls last, o.id desc nulls last
        limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    offers: await withCards(db, page),
    nextCursor: rows.length > limit && last ? encodeCursor(last.bump_key, last.id) : null,
  };
}

/**
 * マッチ: other users' open offers that give a card the user wants (in any of their open offers)
 * and want a card the user gives, with at least one same-rarity pair; ranked by how many 1:1
 * trades fit at once, then by how recently the owner was active.
 */
export function listMatches(db: Db, userId: string, limit = MATCH_LIMIT): Promise<MatchView[]> {
  limit = Math.min(Math.max(limit, 1), 100);
  // Kept per user while the board version stands (every board write on this instance, and on the
  // others through Redis, moves it); after MATCH_CACHE_TTL_MS (expiry by time, writes outside the
  // app) it is recomputed in the background while the last result still answers.
  const key = `${userId}|${limit}`;
  const version = boardVersion();
  const hit = matchCache.get(key);
  const now = Date.now();
  if (hit && hit.version === version && hit.expires + MATCH_STALE_GRACE_MS > now) {
    if (hit.expires > now) return hit.value;
    // Only time has passed, and not much: answer from the last result while one recomputation runs.
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = computeMatches(db, userId, limit);
      next.then(
        () => matchCache.get(key) === hit && remember(key, version, next),
        () => (hit.refreshing = false),
      );
    }
    return hit.value;
  }
  const value = computeMatches(db, userId, limit);
  remember(key, version, value);
  return value;
}

/**
 * One page of マッチ (1-based, MATCH_PAGE_SIZE offers). While the user's list stands, the same page
 * object is handed out again, so a route can keep what it serialised from it.
 */
export async function listMatchPage(db: Db, userId: string, page = 1): Promise<MatchPage> {
  const all = await listMatches(db, userId);
  let pages = matchPages.get(all);
  if (!pages) matchPages.set(all, (pages = new Map()));
  let result = pages.get(page);
  if (!result) {
    const start = (page - 1) * MATCH_PAGE_SIZE;
    result = { matches: all.slice(start, start + MATCH_PAGE_SIZE), page, pageCount: Math.ceil(all.length / MATCH_PAGE_SIZE), total: all.length };
    pages.set(page, result);
  }
  return result;
}

/** `?page=` of マッチ: absent means the first page; anything but 1–999 is refused. */
export function parseMatchPage(value: string | null): number {
  if (value === null || value === "") return 1;
  if (!/^[1-9]\d{0,2}$/.test(value)) throw new TradeError("invalid_page");
  return Number(value);
}

const matchPages = new WeakMap<MatchView[], Map<number, MatchPage>>();

const toChip = (c: OfferCardView): OfferChipView => c;

/** What a list page sends to the browser of an offer (OfferListItem). */
export function toListItem(offer: OfferView): OfferListItem {
  return {
    id: offer.id,
    ownerId: offer.ownerId,
    ownerName: offer.ownerName,
    ownerCompletedTrades: offer.ownerCompletedTrades,
    ownerLastActiveAt: offer.ownerLastActiveAt,
    status: offer.status,
    comment: offer.comment,
    createdAt: offer.createdAt,
    bumpedAt: offer.bumpedAt,
    give: offer.give.map(toChip),
    want: offer.want.map(toChip),
  };
}

/** A page of マッチ as its list shows it, made once per page object. */
export function matchListItems(page: MatchPage): MatchListItem[] {
  let items = matchItems.get(page);
  if (!items) {
    items = page.matches.map((match) => ({
      ...toListItem(match),
      fitting: match.fitting,
      pairGive: match.pairs.flatMap((p) => p.give),
      pairWant: match.pairs.flatMap((p) => p.want),
    }));
    matchItems.set(page, items);
  }
  return items;
}

const matchItems = new WeakMap<MatchPage, MatchListItem[]>();

function remember(key: string, version: number, value: Promise<MatchView[]>): void {
  const entry = { version, expires: Date.now() + MATCH_CACHE_TTL_MS, value, refreshing: false };
  matchCache.delete(key);
  matchCache.set(key, entry);
  while (matchCache.size > MATCH_CACHE_MAX_KEYS) matchCache.delete(matchCache.keys().next().value!);
  value.catch(() => matchCache.get(key) === entry && matchCache.delete(key));
}

async function computeMatches(db: Db, userId: string, limit: number): Promise<MatchView[]> {
  const mine = await rowsOf<{ card_id: string; side: string; rarity: string }>(
    db,
    sql`select distinct c.card_id, c.side, k.rarity from ${tradeOfferCards} c
        join ${tradeOffers} o on o.id = c.offer_id join ${cards} k on k.id = c.card_id
        where o.owner_id = ${userId} and ${OPEN_NOW}`,
  );
  // Only rarities on both of my sides can ever pair (the game trades like for like).
  const giveRarities = new Set(mine.filter((m) => m.side === "give").map((m) => m.rarity));
  const wantRarities = new Set(mine.filter((m) => m.side === "want").map((m) => m.rarity));
  const want = mine.filter((m) => m.side === "want" && giveRarities.has(m.rarity));
  const give = mine.filter((m) => m.side === "give" && wantRarities.has(m.rarity));
  if (!want.length || !give.length) return [];
  const ranked = (await rankMatches(db, userId, want, give)).slice(0, limit);
  if (!ranked.length) return [];
  const rows = await rowsOf<OfferRow>(
    db,
    sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where o.id in (${sql.join(ranked.map((r) => sql`${r.id}::uuid`), sql`, `)})`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const page = ranked.filter((r) => byId.has(r.id));
  const offers = await withCards(db, page.map((r) => byId.get(r.id)!));
  const myWant = new Set(mine.filter((m) => m.side === "want").map((m) => m.card_id));
  const myGive = new Set(mine.filter((m) => m.side === "give").map((m) => m.card_id));
  return offers.map((offer, i) => ({
    ...offer,
    fitting: page[i].fitting,
    pairs: pairsByRarity(
      offer.give.filter((c) => myWant.has(c.cardId)),
      offer.want.filter((c) => myGive.has(c.cardId)),
    ),
  }));
}

const MATCH_CACHE_TTL_MS = 10_000;
/** Past its TTL an answer is served while a fresh one is computed, for this long at most. */
const MATCH_STALE_GRACE_MS = 20_000;
const MATCH_CACHE_MAX_KEYS = 1_000;
type RankedMatch = { id: string; fitting: number };
const matchCache = new Map<string, { version: number; expires: number; value: Promise<MatchView[]>; refreshing: boolean }>();

/**
 * Ranks every open offer that gives one of my wanted cards and wants one of my given cards.
 * trade_offers.match_keys ('g:<card>' / 'w:<card>') and its GIN index find them in one index
 * scan, however popular the cards; the same-rarity fit is counted here from those keys.
 */
async function rankMatches(
  db: Db,
  userId: string,
  want: { card_id: string; rarity: string }[],
  give: { card_id: string; rarity: string }[],
): Promise<RankedMatch[]> {
  const keys = (prefix: string, list: { card_id: string }[]) =>
    sql`array[${sql.join(list.map((c) => sql`${prefix + c.card_id}`), sql`, `)}]::text[]`;
  const candidates = await rowsOf<{ id: string; match_keys: string[]; last_active_at: Date | string; bumped_at: Date | string }>(
    db,
    sql`select o.id, o.match_keys, p.last_active_at, o.bumped_at
        from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where ${OPEN_NOW} and o.match_keys && ${keys("g:", want)} and o.match_keys && ${keys("w:", give)}
          and o.owner_id <> ${userId} and p.suspended_at is null and ${notBlockedFor(userId)}`,
  );
  const wantRarity = new Map(want.map((c) => [c.card_id, c.rarity]));
  const giveRarity = new Map(give.map((c) => [c.card_id, c.rarity]));
  const ranked: (RankedMatch & { active: number; bumped: number })[] = [];
  for (const offer of candidates) {
    // Per rarity: their cards I want, and their wanted cards I give.
    const receive = new Map<string, number>();
    const send = new Map<string, number>();
    for (const k of offer.match_keys) {
      const rarity = (k.startsWith("g:") ? wantRarity : giveRarity).get(k.slice(2));
      if (!rarity) continue;
      const side = k.startsWith("g:") ? receive : send;
      side.set(rarity, (side.get(rarity) ?? 0) + 1);
    }
    let fitting = 0;
    for (const [rarity, n] of receive) fitting += Math.min(n, send.get(rarity) ?? 0);
    if (fitting > 0) {
      ranked.push({ id: offer.id, fitting, active: new Date(offer.last_active_at).getTime(), bumped: new Date(offer.bumped_at).getTime() });
    }
  }
  ranked.sort((a, b) => b.fitting - a.fitting || b.active - a.active || b.bumped - a.bumped || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return ranked.map(({ id, fitting }) => ({ id, fitting }));
}

/** The user's own offers in every status (expired ones included), newest first. */
export async function listOwnOffers(db: Db, userId: string, limit = 50): Promise<OfferView[]> {
  await flipExpired(db, userId);
  const rows = await rowsOf<OfferRow>(
    db,
    sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where o.owner_id = ${userId}
        order by (o.status in ('open', 'negotiating')) desc, o.bumped_at desc, o.id desc
        limit ${limit}`,
  );
  return withCards(db, rows);
}

/** For a card page: how many open offers give and want this card. */
export async function offerCountsForCard(db: Db, cardId: string): Promise<{ give: number; want: number }> {
  const rows = await rowsOf<{ side: string; n: number }>(
    db,
    sql`select c.side, count(*)::int as n from ${tradeOfferCards} c
        join ${tradeOffers} o on o.id = c.offer_id join ${profiles} p on p.user_id = o.owner_id
        where c.card_id = ${cardId} and ${OPEN_NOW} and p.suspended_at is null
        group by c.side`,
  );
  const of = (side: string) => Number(rows.find((r) => r.side === side)?.n ?? 0);
  return { give: of("give"), want: of("want") };
}

/**
 * The 求 side a new offer starts with (offerPrefillFromParams): only cards that exist and may be
 * traded, shown in the trade picker's packs, at most MAX_CARDS_PER_SIDE; the rest are dropped,
 * so the form never starts with a card the board would refuse.
 */
export async function offerPrefill(db: Db, wanted: { cardId: string; count: number }[]): Promise<{ cardId: string; name: string; nameEn: string; rarity: string; count: number }[]> {
  if (!wanted.length) return [];
  const index = await cardIndex(db);
  const prefill = [];
  for (const { cardId, count } of wanted) {
    const card = index.byId.get(cardId);
    if (!card || !card.tradeable || !card.packIds.some((id) => !TRADE_EXCLUDED_PACKS.includes(id))) continue;
    prefill.push({ cardId, name: card.name, nameEn: card.nameEn, rarity: card.rarity, count });
    if (prefill.length >= MAX_CARDS_PER_SIDE) break;
  }
  return prefill;
}

/** Cards offered for trading, for the picker's labels and the board's filter chips. */
export async function cardsByIds(db: Db, ids: string[]): Promise<{ id: string; name: string; nameEn: string; rarity: string }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: cards.id, name: cards.name, nameEn: cards.nameEn, rarity: cards.rarity })
    .from(cards)
    .where(inArray(cards.id, ids));
}

// ---------------------------------------------------------------------------------------------
// Responding, blocking, reporting


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
  return db.transaction(async (tx) => {
    await lockActiveProfile(tx, userId, true);
    const [offer] = await rowsOf<{ owner_id: string; status: string; expired: boolean; suspended: boolean }>(
      tx,
      sql`select o.owner_id, o.status, (o.status = 'open' and o.expires_at <= now()) as expired,
            (p.suspended_at is not null) as suspended
          from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id where o.id = ${offerId}`,
    );
    if (!offer || offer.suspended) throw new TradeError("not_found");
    if (offer.owner_id === userId) throw new TradeError("own_offer");
    if (await isBlockedEitherWay(tx, userId, offer.owner_id)) throw new TradeError("blocked");
    const isOpen = offer.status === "open" && !offer.expired;
    if (!isOpen) {
      // A closed or expired offer still lets an existing conversation continue.
      const [existing] = await tx
        .select({ id: chatRooms.id })
        .from(chatRooms)
        .where(and(eq(chatRooms.offerId, offerId), eq(chatRooms.partnerId, userId)));
      if (!existing) throw new TradeError("not_open");
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
    await touchActive(tx, userId);
    return { roomId: room.id, created: Boolean(room.created) };
  });
}




/** 通報: a reason for an offer someone else posted; one open report per reporter and offer. */
export async function reportOffer(db: Db, reporterId: string, offerId: string, reason: string): Promise<{ reportId: string }> {
  const offer = await getOffer(db, offerId, reporterId);
  if (!offer) throw new TradeError("not_found");
  if (offer.ownerId === reporterId) throw new TradeError("own_offer");
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), eq(reports.targetType, "offer"), eq(reports.targetId, offerId), eq(reports.status, "open")));
    if (existing) return { reportId: existing.id };
    await countAction(tx, reporterId, "report");
    const [row] = await tx
      .insert(reports)
      .values({ reporterId, targetType: "offer", targetId: offerId, reason })
      .returning({ id: reports.id });
    return { reportId: row.id };
  });
}






export async function listReports(
  db: Db,
  options: { status?: "open" | "dismissed" | "actioned" | "all"; limit?: number; id?: string } = {},
): Promise<ReportView[]> {
  const status = options.status ?? "open";
  const filters: SQL[] = [];
  if (status !== "all") filters.push(sql`r.status = ${status}`);
  if (options.id) filters.push(sql`r.id = ${options.id}`);
  const rows = await rowsOf<{
    id: string;
    status: string;
    reason: string;
    created_at: Date | string;
    reporter_name: string | null;
    target_type: string;
    target_id: string;
    offer_id: string | null;
    offer_status: string | null;
    offer_comment: string | null;
    message_body: string | null;
    target_user_id: string | null;
    target_user_name: string | null;
    target_suspended: boolean | null;
  }>(
    db,
    sql`select r.id, r.status, r.reason, r.created_at, rp.display_name as reporter_name,
          r.target_type, r.target_id,
          o.id as offer_id, o.status as offer_status, o.comment as offer_comment,
          m.body as message_body,
          tp.user_id as target_user_id, tp.display_name as target_user_name,
          (tp.suspended_at is not null) as target_suspended
        from ${reports} r
        left join ${profiles} rp on rp.user_id = r.reporter_id
        left join ${tradeOffers} o on r.target_type = 'offer' and o.id::text = r.target_id
        left join ${chatMessages} m on r.target_type = 'message' and m.id::text = r.target_id
        left join ${profiles} tp on tp.user_id = case r.target_type
            when 'offer' then o.owner_id when 'message' then m.sender_id else r.target_id end
        ${filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``}
        order by r.created_at desc
        limit ${Math.min(options.limit ?? 100, 500)}`,
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    reason: r.reason,
    createdAt: iso(r.created_at),
    reporterName: r.reporter_name ?? "",
    targetType: r.target_type,
    targetId: r.target_id,
    targetUserId: r.target_user_id,
    targetUserName: r.target_user_name,
    targetSuspended: Boolean(r.target_suspended),
    offer: r.offer_id ? { id: r.offer_id, status: r.offer_status ?? "", comment: r.offer_comment ?? "" } : null,
    messageBody: r.message_body,
  }));
}

export type ReportAction = "dismiss" | "closeOffer" | "suspendUser";

/** Resolves a report: dismiss it, close the reported offer, or suspend the user behind it. */
export async function resolveReport(db: Db, reportId: string, action: ReportAction): Promise<void> {
  if (!isOfferId(reportId)) throw new TradeError("not_found");
  const [report] = await listReports(db, { status: "all", id: reportId });
  if (!report) throw new TradeError("not_found");
  await db.transaction(async (tx) => {
    if (action === "closeOffer") {
      if (!report.offer) throw new TradeError("not_found");
      await tx
        .update(tradeOffers)
        .set({ status: "closed", updatedAt: sql`now()` })
        .where(and(eq(tradeOffers.id, report.offer.id), inArray(tradeOffers.status, ["open", "negotiating", "expired"])));
    }
    if (action === "suspendUser") {
      if (!report.targetUserId) throw new TradeError("not_found");
      await tx.update(profiles).set({ suspendedAt: sql`coalesce(${profiles.suspendedAt}, now())` }).where(eq(profiles.userId, report.targetUserId));
      await tx
        .update(tradeOffers)
        .set({ status: "closed", updatedAt: sql`now()` })
        .where(and(eq(tradeOffers.ownerId, report.targetUserId), inArray(tradeOffers.status, ["open", "negotiating"])));
    }
    await tx
      .update(reports)
      .set({ status: action === "dismiss" ? "dismissed" : "actioned", resolvedAt: sql`now()` })
      .where(eq(reports.id, reportId));
  });
  noteBoardChange();
}

/** Rarities a trade may use (the admin-editable flag), highest first, for the board's filter. */
export function listTradeRarities(db: Db): Promise<{ code: string; labelJa: string; labelEn: string }[]> {
  return rememberCatalogueList(db, "trade-rarities", () =>
    db
      .select({ code: rarities.code, labelJa: rarities.labelJa, labelEn: rarities.labelEn })
      .from(rarities)
      .where(eq(rarities.tradeable, true))
      .orderBy(desc(rarities.rank)),
  );
}

/** Data of the admin 通報 tab (`?reports=all` shows handled ones too). */
export async function reportsTabData(db: Db, url: URL): Promise<{ reports: ReportView[]; filter: "open" | "all"; done: boolean }> {
  const filter = url.searchParams.get("reports") === "all" ? "all" : "open";
  return { reports: await listReports(db, { status: filter }), filter, done: url.searchParams.get("done") === "1" };
}
