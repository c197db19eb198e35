import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, profiles, tradeOfferCards, tradeOffers } from "#app/db/schema/index.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { changeVersion } from "#app/lib/change-bus.server.ts";
import { createCache } from "#app/lib/cache.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { notBlockedFor } from "#app/features/blocks/blocks.server.ts";
import { TradeError } from "./errors";
import { offerOpenNow } from "#app/db/open-offers.ts";
import { OFFER_COLUMNS, toListItem, withCards, type OfferRow } from "./offer-views.server";
import { MATCH_LIMIT, MATCH_PAGE_SIZE, pairsByRarity } from "./rules";
import { cardTradeabilityAt } from "./trade-rules";
import { cardTradeability, loadTradeRules, offersClosedByRules } from "./trade-rules.server";
import { answersRarely, responseRecords } from "#app/features/users/response-record.server.ts";
import type { MatchListItem, MatchPage, MatchView } from "./types";

/**
 * マッチ: other users' open offers that give a card the user wants (in any of their open offers)
 * and want a card the user gives, with at least one same-rarity pair; ranked by how many 1:1
 * trades fit at once, then by the owner's response record (those who rarely answer a new room come
 * after the others), then by how recently the owner was active (docs/decisions/005, 008, 024, 044).
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

/** A page, and its list items per reading language (their card names are in it). */
type PageEntry = { page: MatchPage; items: Partial<Record<Locale, MatchListItem[]>>; json?: Uint8Array<ArrayBuffer> };
/**
 * Why a user has no マッチ, so the empty list says what is true: no open offer, every open offer
 * closed by a trade rule, or simply no offer fitting right now.
 */
export type MatchEmptyReason = "no_open_offer" | "closed_by_rules" | "no_match";
type MatchResult = { matches: MatchView[]; emptyReason: MatchEmptyReason | null };
type MatchEntry = { version: number; freshUntil: number; value: Promise<MatchResult>; refreshing: boolean; pages: Map<number, PageEntry> };
type RankedMatch = { id: string; fitting: number };

const matchCache = createCache<MatchEntry>({ name: "matches", max: MATCH_CACHE_MAX_KEYS, ttlMs: MATCH_CACHE_TTL_MS + MATCH_STALE_GRACE_MS });
const encoder = new TextEncoder();

function remember(key: string, version: number, value: Promise<MatchResult>): MatchEntry {
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
export async function listMatches(db: Db, userId: string, limit = MATCH_LIMIT): Promise<MatchView[]> {
  return (await matchEntry(db, userId, Math.min(Math.max(limit, 1), 100)).value).matches;
}

async function pageEntry(db: Db, userId: string, page: number): Promise<PageEntry> {
  const entry = matchEntry(db, userId, MATCH_LIMIT);
  const { matches: all } = await entry.value;
  let found = entry.pages.get(page);
  if (!found) {
    const start = (page - 1) * MATCH_PAGE_SIZE;
    found = { page: { matches: all.slice(start, start + MATCH_PAGE_SIZE), page, pageCount: Math.ceil(all.length / MATCH_PAGE_SIZE), total: all.length }, items: {} };
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
export async function listMatchListPage(
  db: Db,
  userId: string,
  page: number,
  locale: Locale,
): Promise<{ items: MatchListItem[]; page: number; pageCount: number; emptyReason: MatchEmptyReason | null }> {
  const found = await pageEntry(db, userId, page);
  const { emptyReason } = await matchEntry(db, userId, MATCH_LIMIT).value;
  const items = (found.items[locale] ??= found.page.matches.map((match) => ({
    ...toListItem(match, locale),
    fitting: match.fitting,
    pairGive: match.pairs.flatMap((p) => p.give),
    pairWant: match.pairs.flatMap((p) => p.want),
  })));
  return { items, page: found.page.page, pageCount: found.page.pageCount, emptyReason };
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

/** What I can trade, from my open offers: cards named on each side, and the rarities of my 何でも可 offers. */
type Mine = {
  want: { card_id: string; rarity: string }[];
  give: { card_id: string; rarity: string }[];
  /** I take any card of these rarities (my offers giving them with 求 何でも可). */
  wantAnyRarities: Set<string>;
  /** I give any card of these rarities the partner wants (my offers wanting them with 譲 何でも可). */
  giveAnyRarities: Set<string>;
};

async function computeMatches(db: Db, userId: string, limit: number): Promise<MatchResult> {
  const listed = await rowsOf<{ offer_id: string; card_id: string; side: string; rarity: string; give_any: boolean; want_any: boolean }>(
    db,
    sql`select distinct o.id as offer_id, c.card_id, c.side, k.rarity, o.give_any, o.want_any from ${tradeOfferCards} c
        join ${tradeOffers} o on o.id = c.offer_id join ${cards} k on k.id = c.card_id
        where o.owner_id = ${userId} and ${offerOpenNow()}`,
  );
  // Only cards the trade rules allow now can pair (docs/decisions/018): an offer a rule change
  // closed stays on the board, marked, but is nobody's マッチ.
  const allowed = await cardTradeability(db, [...new Set(listed.map((m) => m.card_id))]);
  const tradeable = listed.filter((m) => allowed.get(m.card_id)?.tradeable);
  const closedOffers = new Set(listed.filter((m) => !allowed.get(m.card_id)?.tradeable).map((m) => m.offer_id));
  const none = (): MatchResult => ({
    matches: [],
    emptyReason: listed.length === 0 ? "no_open_offer" : listed.every((m) => closedOffers.has(m.offer_id)) ? "closed_by_rules" : "no_match",
  });
  const wantAnyRarities = new Set(tradeable.filter((m) => m.side === "give" && m.want_any).map((m) => m.rarity));
  const giveAnyRarities = new Set(tradeable.filter((m) => m.side === "want" && m.give_any).map((m) => m.rarity));
  const named = (side: string) => [...new Map(tradeable.filter((m) => m.side === side).map((m) => [m.card_id, { card_id: m.card_id, rarity: m.rarity }])).values()];
  // Only rarities I can both receive and send can ever pair (the game trades like for like).
  const receivable = new Set([...named("want").map((m) => m.rarity), ...wantAnyRarities]);
  const sendable = new Set([...named("give").map((m) => m.rarity), ...giveAnyRarities]);
  const both = (r: string) => receivable.has(r) && sendable.has(r);
  const mine: Mine = {
    want: named("want").filter((m) => both(m.rarity)),
    give: named("give").filter((m) => both(m.rarity)),
    wantAnyRarities: new Set([...wantAnyRarities].filter(both)),
    giveAnyRarities: new Set([...giveAnyRarities].filter(both)),
  };
  if (![...receivable].some(both)) return none();
  const ranked = (await rankMatches(db, userId, mine)).slice(0, limit);
  if (!ranked.length) return none();
  const rows = await rowsOf<OfferRow>(
    db,
    sql`select ${OFFER_COLUMNS} from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where o.id in (${sql.join(ranked.map((r) => sql`${r.id}::uuid`), sql`, `)})`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const page = ranked.filter((r) => byId.has(r.id));
  const offers = await withCards(db, page.map((r) => byId.get(r.id)!));
  const myWant = new Set(mine.want.map((m) => m.card_id));
  const myGive = new Set(mine.give.map((m) => m.card_id));
  const asPairing = (list: { card_id: string; rarity: string }[]) => list.map((m) => ({ cardId: m.card_id, rarity: m.rarity }));
  const matches = offers.map((offer, i) => {
    // 何でも可 on their side: the card comes from my own list, of the rarities they name.
    const theirWantRarities = new Set(offer.want.map((c) => c.rarity));
    const theirGiveRarities = new Set(offer.give.map((c) => c.rarity));
    const receive = offer.giveAny
      ? asPairing(mine.want.filter((m) => theirWantRarities.has(m.rarity)))
      : offer.give.filter((c) => myWant.has(c.cardId) || mine.wantAnyRarities.has(c.rarity));
    const send = offer.wantAny
      ? asPairing(mine.give.filter((m) => theirGiveRarities.has(m.rarity)))
      : offer.want.filter((c) => myGive.has(c.cardId) || mine.giveAnyRarities.has(c.rarity));
    return { ...offer, fitting: page[i].fitting, pairs: pairsByRarity(receive, send) };
  });
  return matches.length ? { matches, emptyReason: null } : none();
}

/**
 * Ranks every open offer I could trade with: it gives a card I want (by name, or of a rarity I
 * take 何でも可) or gives 何でも可 of a rarity I want, and it wants a card I give (likewise).
 * trade_offers.match_keys ('g:<card>' / 'w:<card>', 'gr:<rarity>' / 'wr:<rarity>') and its GIN
 * index find them in one index scan, however popular the cards; the same-rarity fit is counted
 * here from those keys.
 */
async function rankMatches(db: Db, userId: string, mine: Mine): Promise<RankedMatch[]> {
  const found = await fittingOffers(db, userId, mine);
  // Their offers a rule closed stay on the board, marked, and 交渉する on them is refused: they
  // are nobody's マッチ either (the board's question, before the limit and the pages).
  const closed = await offersClosedByRules(db, found);
  const ranked = found.filter((f) => !closed.has(f.id));
  // At the same fit, players who answer their new rooms come first (the response record), then
  // the most recently active.
  const records = await responseRecords(db, ranked.map((r) => r.owner));
  const rare = new Set([...records].filter(([, record]) => answersRarely(record)).map(([id]) => id));
  const late = (r: { owner: string }) => (rare.has(r.owner) ? 1 : 0);
  ranked.sort((a, b) => b.fitting - a.fitting || late(a) - late(b) || b.active - a.active || b.bumped - a.bumped || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return ranked.map(({ id, fitting }) => ({ id, fitting }));
}

type FittingOffer = RankedMatch & { owner: string; active: number; bumped: number; give: { cardId: string }[]; want: { cardId: string }[] };

/** The open offers of others that fit `mine` (at least one same-rarity 1:1 trade), unranked. */
async function fittingOffers(q: Queryable, userId: string, mine: Mine): Promise<FittingOffer[]> {
  const keys = (list: string[]) => sql`array[${sql.join(list.map((k) => sql`${k}`), sql`, `)}]::text[]`;
  // A rarity I take 何でも可 meets their 譲 何でも可 as well: they name the card in the room.
  const wantRarities = [...new Set([...mine.want.map((c) => c.rarity), ...mine.wantAnyRarities])];
  const giveRarities = [...new Set([...mine.give.map((c) => c.rarity), ...mine.giveAnyRarities])];
  const receiveKeys = [...mine.want.map((c) => `g:${c.card_id}`), ...[...mine.wantAnyRarities].map((r) => `gr:${r}`)];
  const sendKeys = [...mine.give.map((c) => `w:${c.card_id}`), ...[...mine.giveAnyRarities].map((r) => `wr:${r}`)];
  const none = sql`false`;
  // Something for me: a card they give (named), or their 譲 何でも可 against a rarity I want.
  const receives = sql`(${receiveKeys.length ? sql`o.match_keys && ${keys(receiveKeys)}` : none}
    or ${wantRarities.length ? sql`(o.give_any and o.match_keys && ${keys(wantRarities.map((r) => `wr:${r}`))})` : none})`;
  const sends = sql`(${sendKeys.length ? sql`o.match_keys && ${keys(sendKeys)}` : none}
    or ${giveRarities.length ? sql`(o.want_any and o.match_keys && ${keys(giveRarities.map((r) => `gr:${r}`))})` : none})`;
  const candidates = await rowsOf<{ id: string; owner_id: string; match_keys: string[]; give_any: boolean; want_any: boolean; last_active_at: Date | string; bumped_at: Date | string }>(
    q,
    sql`select o.id, o.owner_id, o.match_keys, o.give_any, o.want_any, p.last_active_at, o.bumped_at
        from ${tradeOffers} o join ${profiles} p on p.user_id = o.owner_id
        where ${offerOpenNow()} and ${receives} and ${sends}
          and o.owner_id <> ${userId} and p.suspended_at is null and ${notBlockedFor(userId)}`,
  );
  // The rarities of their named cards, read with the same connection (inside a post's transaction).
  const ids = [...new Set(candidates.flatMap((o) => o.match_keys.filter((k) => k.startsWith("g:") || k.startsWith("w:")).map((k) => k.slice(2))))];
  const rarities = new Map<string, string>();
  if (ids.length) {
    const found = await rowsOf<{ id: string; rarity: string }>(q, sql`select id, rarity from ${cards} where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    for (const row of found) rarities.set(row.id, row.rarity);
  }
  const rarityOf = (id: string) => rarities.get(id);
  const wantIds = new Set(mine.want.map((c) => c.card_id));
  const giveIds = new Set(mine.give.map((c) => c.card_id));
  const countBy = (list: { rarity: string }[]) => list.reduce((m, c) => m.set(c.rarity, (m.get(c.rarity) ?? 0) + 1), new Map<string, number>());
  const wantCount = countBy(mine.want);
  const giveCount = countBy(mine.give);
  const ranked: FittingOffer[] = [];
  for (const offer of candidates) {
    // Per rarity: the cards I would receive from them, and the cards I would send them.
    const receive = new Map<string, number>();
    const send = new Map<string, number>();
    const add = (side: Map<string, number>, rarity: string, n = 1) => side.set(rarity, (side.get(rarity) ?? 0) + n);
    for (const k of offer.match_keys) {
      const at = k.indexOf(":");
      const kind = k.slice(0, at);
      const value = k.slice(at + 1);
      if (kind === "g" && !offer.give_any) {
        const rarity = rarityOf(value);
        if (rarity && (wantIds.has(value) || mine.wantAnyRarities.has(rarity))) add(receive, rarity);
      } else if (kind === "w" && !offer.want_any) {
        const rarity = rarityOf(value);
        if (rarity && (giveIds.has(value) || mine.giveAnyRarities.has(rarity))) add(send, rarity);
      } else if (kind === "wr" && offer.give_any) {
        // They give 何でも可 of the rarity they want: any card of it on my want list, or, when I
        // take 何でも可 of it too, the one card they will name.
        add(receive, value, Math.max(wantCount.get(value) ?? 0, mine.wantAnyRarities.has(value) ? 1 : 0));
      } else if (kind === "gr" && offer.want_any) {
        add(send, value, Math.max(giveCount.get(value) ?? 0, mine.giveAnyRarities.has(value) ? 1 : 0));
      }
    }
    let fitting = 0;
    for (const [rarity, n] of receive) fitting += Math.min(n, send.get(rarity) ?? 0);
    if (fitting > 0) {
      // Their named cards (the trade rules close the offer when one of them is closed).
      const named = (prefix: string) => offer.match_keys.filter((k) => k.startsWith(prefix)).map((k) => ({ cardId: k.slice(prefix.length) }));
      ranked.push({
        id: offer.id,
        owner: offer.owner_id,
        fitting,
        active: new Date(offer.last_active_at).getTime(),
        bumped: new Date(offer.bumped_at).getTime(),
        give: named("g:"),
        want: named("w:"),
      });
    }
  }
  return ranked;
}

/**
 * The open offers a new offer fits under マッチ's rules (card for card or 何でも可, the
 * one rule the board's マッチ ranks by), with their owners: the players its new-offer notification
 * goes to, and the offers the funnel counts as matched.
 * `give`/`want`: the new offer's named cards with their rarities.
 */
export async function matchingOffers(
  q: Queryable,
  userId: string,
  offer: { give: { cardId: string; rarity: string }[]; want: { cardId: string; rarity: string }[]; giveAny: boolean; wantAny: boolean },
): Promise<{ offerId: string; ownerId: string }[]> {
  const side = (list: { cardId: string; rarity: string }[]) => list.map((c) => ({ card_id: c.cardId, rarity: c.rarity }));
  const mine: Mine = {
    want: side(offer.want),
    give: side(offer.give),
    wantAnyRarities: new Set(offer.wantAny ? offer.give.map((c) => c.rarity) : []),
    giveAnyRarities: new Set(offer.giveAny ? offer.want.map((c) => c.rarity) : []),
  };
  const found = await fittingOffers(q, userId, mine);
  const closed = await offersClosedWithin(q, found);
  return found.filter((f) => !closed.has(f.id)).map((f) => ({ offerId: f.id, ownerId: f.owner }));
}

/**
 * offersClosedByRules's answer (an offer is closed when one of its named cards is closed now, by
 * the one rule, cardTradeabilityAt) read with the caller's connection: matchingOffers runs inside
 * a post's transaction, and PGlite's one connection would wait for it to end before answering the
 * database outside. The rules and the offers' cards (their rarity and packs) are read through
 * `q`, like the post's own gate (assertCardsTradeable) reads them; a transaction's rules are kept
 * under its own cache scope (a few rows), and the card index is not loaded for it.
 */
async function offersClosedWithin(q: Queryable, offers: readonly FittingOffer[], at: Date = new Date()): Promise<Set<string>> {
  const ids = [...new Set(offers.flatMap((o) => [...o.give, ...o.want].map((c) => c.cardId)))];
  if (ids.length === 0) return new Set();
  const [rules, rows] = await Promise.all([
    loadTradeRules(q as Db),
    rowsOf<{ id: string; rarity: string; pack_ids: string[] }>(
      q,
      sql`select c.id, c.rarity, array_agg(cp.pack_id) as pack_ids
          from ${cards} c join ${cardPacks} cp on cp.card_id = c.id
          where c.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
          group by c.id, c.rarity`,
    ),
  ]);
  const closedCards = new Set(rows.filter((row) => !cardTradeabilityAt(rules, { rarity: row.rarity, packIds: row.pack_ids }, at).tradeable).map((row) => row.id));
  return new Set(offers.filter((o) => [...o.give, ...o.want].some((c) => closedCards.has(c.cardId))).map((o) => o.id));
}
