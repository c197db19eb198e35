import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { cards, profiles, tradeOfferCards, tradeOffers } from "../../db/schema/index";
import { rowsOf } from "../../db/sql.server";
import { changeVersion } from "../../lib/change-bus.server";
import { createCache } from "../../lib/cache.server";
import { notBlockedFor } from "../blocks/blocks.server";
import { TradeError } from "./errors";
import { offerOpenNow } from "../../db/open-offers";
import { OFFER_COLUMNS, toListItem, withCards, type OfferRow } from "./offer-views.server";
import { MATCH_LIMIT, MATCH_PAGE_SIZE, pairsByRarity } from "./rules";
import { cardTradeability } from "./trade-rules.server";
import { answersRarely, responseRecords } from "../users/response-record.server";
import type { MatchListItem, MatchPage, MatchView } from "./types";

/**
 * マッチ: other users' open offers that give a card the user wants (in any of their open offers)
 * and want a card the user gives, with at least one same-rarity pair; ranked by how many 1:1
 * trades fit at once, then by the owner's response record (those who rarely answer a new room come
 * after the others), then by how recently the owner was active (docs/decisions/005, 007, 008, 023).
 *
 * Kept per user while the board version stands (every board write on this instance, and on the
 * others through Redis, moves it); after MATCH_CACHE_TTL_MS (expiry by time, writes outside the
 * app) it is recomputed in the background while the last result still answers, for
 * MATCH_STALE_GRACE_MS more at most. Pages, their list items and their JSON are made once per
 * kept result.
 */
const MATCH_CACHE_TTL_MS = 10_000;
/** Past its TTL an answer is served while a fresh one is computed, for this long at most. */
const MATCH_STALE_GRACE_MS = 20_000;
const MATCH_CACHE_MAX_KEYS = 1_000;

type PageEntry = { page: MatchPage; items?: MatchListItem[]; json?: Uint8Array<ArrayBuffer> };
type MatchEntry = { version: number; freshUntil: number; value: Promise<MatchView[]>; refreshing: boolean; pages: Map<number, PageEntry> };
type RankedMatch = { id: string; fitting: number };

const matchCache = createCache<MatchEntry>({ name: "matches", max: MATCH_CACHE_MAX_KEYS, ttlMs: MATCH_CACHE_TTL_MS + MATCH_STALE_GRACE_MS });
const encoder = new TextEncoder();

function remember(key: string, version: number, value: Promise<MatchView[]>): MatchEntry {
  const entry: MatchEntry = { version, freshUntil: Date.now() + MATCH_CACHE_TTL_MS, value, refreshing: false, pages: new Map() };
  matchCache.set(key, entry);
  value.catch(() => matchCache.get(key) === entry && matchCache.delete(key));
  return entry;
}

/** The kept result of a user's マッチ, recomputed when the board moved or it went stale. */
function matchEntry(db: Db, userId: string, limit: number): MatchEntry {
  const key = `${userId}|${limit}`;
  const version = changeVersion("board");
  const hit = matchCache.get(key);
  if (hit && hit.version === version) {
    if (hit.freshUntil > Date.now()) return hit;
    // Only time has passed, and not much: answer from the last result while one recomputation runs.
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = computeMatches(db, userId, limit);
      next.then(
        () => matchCache.get(key) === hit && remember(key, version, next),
        () => (hit.refreshing = false),
      );
    }
    return hit;
  }
  return remember(key, version, computeMatches(db, userId, limit));
}

/** The user's ranked マッチ (MATCH_LIMIT at most). */
export function listMatches(db: Db, userId: string, limit = MATCH_LIMIT): Promise<MatchView[]> {
  return matchEntry(db, userId, Math.min(Math.max(limit, 1), 100)).value;
}

async function pageEntry(db: Db, userId: string, page: number): Promise<PageEntry> {
  const entry = matchEntry(db, userId, MATCH_LIMIT);
  const all = await entry.value;
  let found = entry.pages.get(page);
  if (!found) {
    const start = (page - 1) * MATCH_PAGE_SIZE;
    found = { page: { matches: all.slice(start, start + MATCH_PAGE_SIZE), page, pageCount: Math.ceil(all.length / MATCH_PAGE_SIZE), total: all.length } };
    entry.pages.set(page, found);
  }
  return found;
}

/**
 * One page of マッチ (1-based, MATCH_PAGE_SIZE offers). While the user's list stands, the same page
 * object is handed out again.
 */
export async function listMatchPage(db: Db, userId: string, page = 1): Promise<MatchPage> {
  return (await pageEntry(db, userId, page)).page;
}

/** A page of マッチ as its list shows it (the offer card and the pairing cards), made once per page. */
export async function listMatchListPage(db: Db, userId: string, page = 1): Promise<{ items: MatchListItem[]; page: number; pageCount: number }> {
  const found = await pageEntry(db, userId, page);
  found.items ??= found.page.matches.map((match) => ({
    ...toListItem(match),
    fitting: match.fitting,
    pairGive: match.pairs.flatMap((p) => p.give),
    pairWant: match.pairs.flatMap((p) => p.want),
  }));
  return { items: found.items, page: found.page.page, pageCount: found.page.pageCount };
}

/** A page of マッチ as the JSON API sends it, encoded once per page. */
export async function matchPageJson(db: Db, userId: string, page = 1): Promise<Uint8Array<ArrayBuffer>> {
  const found = await pageEntry(db, userId, page);
  found.json ??= encoder.encode(JSON.stringify(found.page));
  return found.json;
}

/** `?page=` of マッチ: absent means the first page; anything but 1–999 is refused. */
export function parseMatchPage(value: string | null): number {
  if (value === null || value === "") return 1;
  if (!/^[1-9]\d{0,2}$/.test(value)) throw new TradeError("invalid_page");
  return Number(value);
}

async function computeMatches(db: Db, userId: string, limit: number): Promise<MatchView[]> {
  const listed = await rowsOf<{ card_id: string; side: string; rarity: string }>(
    db,
    sql`select distinct c.card_id, c.side, k.rarity from ${tradeOfferCards} c
        join ${tradeOffers} o on o.id = c.offer_id join ${cards} k on k.id = c.card_id
        where o.owner_id = ${userId} and ${offerOpenNow()}`,
  );
  // Only cards the trade rules allow now can pair (docs/decisions/018): an offer a rule change
  // closed stays on the board, marked, but is nobody's マッチ.
  const allowed = await cardTradeability(db, [...new Set(listed.map((m) => m.card_id))]);
  const mine = listed.filter((m) => allowed.get(m.card_id)?.tradeable);
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
  const candidates = await rowsOf<{ id: string; owner_id: string; match_keys: string[]; last_active_at: Date | string; bumped_at: Date | string }>(
    db,
    sql`select o.id, o.owner_id, o.match_keys, p.last_active_at, o.bumped_at
        from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where ${offerOpenNow()} and o.match_keys && ${keys("g:", want)} and o.match_keys && ${keys("w:", give)}
          and o.owner_id <> ${userId} and p.suspended_at is null and ${notBlockedFor(userId)}`,
  );
  const wantRarity = new Map(want.map((c) => [c.card_id, c.rarity]));
  const giveRarity = new Map(give.map((c) => [c.card_id, c.rarity]));
  const ranked: (RankedMatch & { owner: string; active: number; bumped: number })[] = [];
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
      ranked.push({ id: offer.id, owner: offer.owner_id, fitting, active: new Date(offer.last_active_at).getTime(), bumped: new Date(offer.bumped_at).getTime() });
    }
  }
  // At the same fit, players who answer their new rooms come first (the response record), then
  // the most recently active.
  const records = await responseRecords(db, ranked.map((r) => r.owner));
  const rare = new Set([...records].filter(([, record]) => answersRarely(record)).map(([id]) => id));
  const late = (r: { owner: string }) => (rare.has(r.owner) ? 1 : 0);
  ranked.sort((a, b) => b.fitting - a.fitting || late(a) - late(b) || b.active - a.active || b.bumped - a.bumped || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return ranked.map(({ id, fitting }) => ({ id, fitting }));
}
