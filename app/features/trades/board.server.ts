import { desc, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cards, profiles, rarities, tradeOfferCards, tradeOffers } from "#app/db/schema/index.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { changeVersion } from "#app/lib/change-bus.server.ts";
import { rememberCatalogueList } from "#app/features/cards/card-index.server.ts";
import { blockedEitherWay, notBlockedFor } from "#app/features/blocks/blocks.server.ts";
import { TradeError } from "./errors";
import { offerOpenNow } from "#app/db/open-offers.ts";
import { OFFER_COLUMNS, UUID, withCards, type OfferRow } from "./offer-views.server";
import { BOARD_PAGE_SIZE } from "./rules";
import type { BoardFilters } from "./trades.schema";
import { closedPacksAt, tradeableRaritiesAt } from "./trade-rules";
import { loadTradeRules } from "./trade-rules.server";
import type { BoardPage, OfferView } from "./types";

/**
 * The trade board (docs/decisions/005): open offers newest-bumped first, in pages with a cursor of the
 * exact bumped_at and id of the last offer shown; filters by card, pack and rarity; and the
 * counts and lists the board's filters show.
 */

// Cursors: the exact bumped_at (microseconds, UTC) and id of the last offer shown.
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

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

/** The offer names a card on `side` of the same rarity as `cardId` (the board filters on 何でも可 offers). */
const sameRarityOn = (side: "give" | "want", cardId: string) =>
  sql`exists (select 1 from ${tradeOfferCards} c join ${cards} k on k.id = c.card_id
              where c.offer_id = o.id and c.side = ${side} and k.rarity = (select rarity from ${cards} where id = ${cardId}))`;

type BoardOptions = { viewerId?: string | null; filters?: BoardFilters; cursor?: string | null; limit?: number };

/** A page of the board as read, with each offer's cursor (its exact bumped_at and id). */
type KeptPage = { offers: OfferView[]; cursors: string[]; more: boolean };

/**
 * How many offers beyond a page a kept page holds: the viewer's blocks and offers that expired
 * since it was read are taken out of it, and it still answers while this many remain.
 */
const KEPT_EXTRA = 10;
/**
 * How long what the board shows is kept between board writes (its pages, a card's counts): as long
 * as the signed-out page cache keeps a page (PAGE_CACHE_SECONDS' default, docs/decisions/044), since
 * offers that expire by the clock move no board version.
 */
const BOARD_KEPT_TTL_MS = 5_000;
// First pages apart from the pages a cursor names: any well-formed cursor names a page, and a run of
// them must not push out the pages everyone reads first.
const keptFirstPages = createCache<KeptPage>({ name: "board-first-pages", max: 200, ttlMs: BOARD_KEPT_TTL_MS });
const keptLaterPages = createCache<KeptPage>({ name: "board-later-pages", max: 300, ttlMs: BOARD_KEPT_TTL_MS });

const pageSize = (limit: number | undefined) => Math.min(Math.max(limit ?? BOARD_PAGE_SIZE, 1), 50);

/**
 * The board: open, unexpired offers, most recently posted or bumped first, 20 a page with a
 * cursor. Filters: a card given, any of several cards given, a card wanted, a pack (either side),
 * a rarity (either side).
 *
 * A page is the same for every reader but the users the reader blocked or was blocked by, so it
 * is read once per board version, filters and cursor (with KEPT_EXTRA offers more) and kept for a
 * few seconds: every board write, here or relayed from another instance, moves the version
 * (posting, bumping, closing, completing, a rule change, a suspension, a block). An offer that
 * expires by the clock moves no version, so the kept page is filtered by the clock on every read,
 * and by the reader's blocks (one small read). When too few offers are left, the board itself is
 * read for this reader. The answer is the one `queryBoard` gives at the same moment on this
 * instance; another instance sees a write once the change bus relays it (at once over Redis, or
 * when the kept page's few seconds run out without it).
 */
export async function listBoard(db: Db, options: BoardOptions = {}, now: Date = new Date()): Promise<BoardPage> {
  const limit = pageSize(options.limit);
  const filters = options.filters ?? {};
  // A damaged cursor is refused before it names a kept page.
  if (options.cursor) decodeCursor(options.cursor);
  // The same filters in any order (of keys, of giveAny's cards) name one page.
  const named = filters.giveAny ? { ...filters, giveAny: [...filters.giveAny].sort() } : filters;
  const key = `${scopeOf(db)}:${changeVersion("board")}:${limit}:${options.cursor ?? ""}:${JSON.stringify(named, Object.keys(named).sort())}`;
  const pages = options.cursor ? keptLaterPages : keptFirstPages;
  const [kept, hidden] = await Promise.all([
    pages.remember(key, () => readBoard(db, { filters, cursor: options.cursor, limit: limit + KEPT_EXTRA })),
    options.viewerId ? blockedEitherWay(db, options.viewerId) : new Set<string>(),
  ]);
  const shown: number[] = [];
  kept.offers.forEach((offer, i) => {
    if (Date.parse(offer.expiresAt) > now.getTime() && !hidden.has(offer.ownerId)) shown.push(i);
  });
  if (shown.length > limit) {
    const page = shown.slice(0, limit);
    return { offers: page.map((i) => kept.offers[i]), nextCursor: kept.cursors[page[page.length - 1]] };
  }
  if (!kept.more) return { offers: shown.map((i) => kept.offers[i]), nextCursor: null };
  return queryBoard(db, options);
}

/** The board read from the database for this reader, without the kept pages (listBoard). */
export async function queryBoard(db: Db, options: BoardOptions = {}): Promise<BoardPage> {
  const limit = pageSize(options.limit);
  const read = await readBoard(db, { ...options, limit });
  return { offers: read.offers.slice(0, limit), nextCursor: read.more ? read.cursors[limit - 1] : null };
}

/** `limit` offers of the board and whether more follow. */
async function readBoard(db: Db, options: BoardOptions & { limit: number }): Promise<KeptPage> {
  const limit = options.limit;
  const f = options.filters ?? {};
  const where: SQL[] = [offerOpenNow(), sql`p.suspended_at is null`, notBlockedFor(options.viewerId)];
  if (f.give) {
    // A 譲 何でも可 offer gives any card of the rarity it wants: the card filtered for, if it has that rarity.
    where.push(sql`(exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'give' and c.card_id = ${f.give})
                    or (o.give_any and ${sameRarityOn("want", f.give)}))`);
  }
  if (f.giveAny?.length) {
    const ids = sql.join(f.giveAny.map((id) => sql`${id}`), sql`, `);
    where.push(sql`exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'give' and c.card_id in (${ids}))`);
  }
  if (f.want) {
    where.push(sql`(exists (select 1 from ${tradeOfferCards} c where c.offer_id = o.id and c.side = 'want' and c.card_id = ${f.want})
                    or (o.want_any and ${sameRarityOn("give", f.want)}))`);
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
  return {
    offers: await withCards(db, page),
    cursors: page.map((row) => encodeCursor(row.bump_key, row.id)),
    more: rows.length > limit,
  };
}

/**
 * A card page's counts are the same for everyone: kept per card while the board stands. Any board
 * write (here or, through the change bus, on another instance) moves the board version and with it
 * the key; offers that expire by the clock move no version (BOARD_KEPT_TTL_MS).
 */
const cardCounts = createCache<{ give: number; want: number }>({ name: "card-offer-counts", max: 5_000, ttlMs: BOARD_KEPT_TTL_MS });

/** For a card page: how many open offers give and want this card. */
export function offerCountsForCard(db: Db, cardId: string): Promise<{ give: number; want: number }> {
  return cardCounts.remember(`${scopeOf(db)}:${changeVersion("board")}:${cardId}`, () => countOffersForCard(db, cardId));
}

async function countOffersForCard(db: Db, cardId: string): Promise<{ give: number; want: number }> {
  const rows = await rowsOf<{ side: string; n: number }>(
    db,
    sql`select c.side, count(*)::int as n from ${tradeOfferCards} c
        join ${tradeOffers} o on o.id = c.offer_id join ${profiles} p on p.user_id = o.owner_id
        where c.card_id = ${cardId} and ${offerOpenNow()} and p.suspended_at is null
        group by c.side`,
  );
  const of = (side: string) => Number(rows.find((r) => r.side === side)?.n ?? 0);
  return { give: of("give"), want: of("want") };
}

/** Cards offered for trading, for the picker's labels and the board's filter chips. */
export async function cardsByIds(db: Db, ids: string[]): Promise<{ id: string; name: string; nameEn: string; rarity: string }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: cards.id, name: cards.name, nameEn: cards.nameEn, rarity: cards.rarity })
    .from(cards)
    .where(inArray(cards.id, ids));
}

/** Rarities the trade rules allow now (docs/decisions/018), highest first, for the board's filter. */
export async function listTradeRarities(db: Db, at: Date = new Date()): Promise<{ code: string; labelJa: string; labelEn: string }[]> {
  const [all, rules] = await Promise.all([
    rememberCatalogueList(db, "rarities-by-rank", () =>
      db.select({ code: rarities.code, labelJa: rarities.labelJa, labelEn: rarities.labelEn }).from(rarities).orderBy(desc(rarities.rank)),
    ),
    loadTradeRules(db),
  ]);
  const open = new Set(tradeableRaritiesAt(rules, at));
  return all.filter((r) => open.has(r.code));
}

/** The packs whose cards the trade rules allow now, for the board's pack filter. */
export async function listTradePacks<P extends { id: string }>(db: Db, packs: readonly P[], at: Date = new Date()): Promise<P[]> {
  const closed = new Set(closedPacksAt(await loadTradeRules(db), at).map((p) => p.packId));
  return packs.filter((p) => !closed.has(p.id));
}
