import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { offerOpenNow } from "#app/db/open-offers.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { changeVersion } from "#app/lib/change-bus.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { createWorkPool } from "#app/lib/work-pool.server.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { cardFaceOf, cardIndex, compareCards, type CardIndex, type IndexedCard } from "#app/features/cards/card-index.server.ts";
import { rarityTradeCosts } from "#app/features/cards/cards.server.ts";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { MAX_CARDS_PER_SIDE } from "#app/features/trades/rules.ts";
import { closeOffer, createOffer, deleteOffer, openChatRoomWithPartner } from "#app/features/trades/offers.server.ts";
import { answersRarely, responseRecords, type ResponseRecord } from "#app/features/users/response-record.server.ts";
import { getCollectionSettings, type CollectionSettings } from "#app/features/collection/collection.server.ts";
import { tradeSides } from "#app/features/collection/trade-sides.server.ts";
import { CollectionError } from "#app/features/collection/errors.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import type { CardListItem } from "#app/features/cards/types.ts";
import { ACTIVE_DAYS, CANDIDATE_LIMIT, PAIRS_SHOWN, PLAYERS_SCANNED, findCandidateRows, textArray, type CandidateRowFinder, type FoundRow } from "#app/features/trade-candidates/trade-finder.server.ts";

export { ACTIVE_DAYS, CANDIDATE_LIMIT, PAIRS_SHOWN, PLAYERS_SCANNED, findCandidateRows, type CandidateRowFinder, type FoundRow };
export { scannedPlayers, scannedPlayersChosen } from "#app/features/trade-candidates/trade-finder.server.ts";


export type CandidateCard = CardListItem;
export type CandidatePair = { give: CandidateCard; get: CandidateCard; rarity: string; cost: number | null };
export type TradeCandidate = {
  userId: string;
  displayName: string;
  lastActiveAt: string;
  record: ResponseRecord;
  answersRarely: boolean;
  /** Same-rarity 1:1 trades possible at once (the ranking). */
  pairCount: number;
  pairs: CandidatePair[];
};

export type CandidatesEmptyReason = "not_opted_in" | "no_spare" | "no_wants" | "none";
export type CandidatesResult = { candidates: TradeCandidate[]; emptyReason: CandidatesEmptyReason | null; settings: CollectionSettings };

/**
 * My side: my spare cards and my wants as the collection defines them (tradeSides: in rarities I
 * trade, tradeable now); only rarities present on both sides can ever pair.
 */
async function mySide(db: Db, userId: string, settings: CollectionSettings, index: CardIndex, now: Date, wanting: readonly string[] | null) {
  const { spare, wants } = await tradeSides(db, userId, settings, index, now, wanting);
  const spareRarities = new Set(spare.map((c) => c.rarity));
  const wantRarities = new Set(wants.map((c) => c.rarity));
  return {
    spare: spare.filter((c) => wantRarities.has(c.rarity)),
    wants: wants.filter((c) => spareRarities.has(c.rarity)),
    hadSpare: spare.length > 0,
    hadWants: wants.length > 0,
  };
}

function pairUp(index: CardIndex, gets: string[], gives: string[], costs: Record<string, number>): CandidatePair[] {
  const byRarity = (ids: string[]) => {
    const map = new Map<string, IndexedCard[]>();
    for (const id of ids) {
      const card = index.byId.get(id);
      if (!card) continue;
      const rarity = displayRarity(card.rarity);
      map.set(rarity, [...(map.get(rarity) ?? []), card]);
    }
    for (const list of map.values()) list.sort(compareCards);
    return map;
  };
  const getBy = byRarity(gets);
  const giveBy = byRarity(gives);
  const pairs: CandidatePair[] = [];
  for (const [rarity, getList] of [...getBy].sort(([, a], [, b]) => compareCards(a[0], b[0]))) {
    const giveList = giveBy.get(rarity) ?? [];
    for (let i = 0; i < Math.min(getList.length, giveList.length); i++) {
      pairs.push({ give: cardFaceOf(giveList[i]), get: cardFaceOf(getList[i]), rarity, cost: costs[rarity] ?? null });
    }
  }
  return pairs;
}

type Found = { settings: CollectionSettings; index: CardIndex; now: Date; emptyReason: CandidatesEmptyReason | null; rows: FoundRow[] };

/** My side, then the finder's statement (for every player, or only for `onlyPartners`). */
async function findRows(db: Db, userId: string, onlyPartners: readonly string[] | null, wanting: readonly string[] | null = null, finder: CandidateRowFinder = findCandidateRows): Promise<Found> {
  const settings = await getCollectionSettings(db, userId);
  const now = new Date();
  const index = await cardIndex(db);
  const empty = (emptyReason: CandidatesEmptyReason): Found => ({ settings, index, now, emptyReason, rows: [] });
  if (!settings.useForTrades) return empty("not_opted_in");
  const mine = await mySide(db, userId, settings, index, now, wanting);
  if (!mine.hadSpare) return empty("no_spare");
  if (!mine.hadWants) return empty("no_wants");
  if (!mine.spare.length || !mine.wants.length || onlyPartners?.length === 0) return empty("none");
  return { settings, index, now, emptyReason: null, rows: await finder(db, userId, mine.spare, mine.wants, onlyPartners, index) };
}

async function candidatesFor(
  db: Db,
  userId: string,
  onlyPartners: readonly string[] | null,
  pairsShown: number,
  wanting: readonly string[] | null = null,
  finder: CandidateRowFinder = findCandidateRows,
): Promise<CandidatesResult> {
  const [{ settings, index, now, emptyReason, rows }, costs] = await Promise.all([findRows(db, userId, onlyPartners, wanting, finder), rarityTradeCosts(db)]);
  if (emptyReason) return { candidates: [], emptyReason, settings };
  const byUser = new Map<string, { displayName: string; lastActiveAt: Date; pairCount: number; gets: string[]; gives: string[] }>();
  for (const row of rows) {
    let entry = byUser.get(row.user_id);
    if (!entry) byUser.set(row.user_id, (entry = { displayName: row.display_name, lastActiveAt: new Date(row.last_active_at), pairCount: Number(row.pair_count), gets: [], gives: [] }));
    (row.side === "get" ? entry.gets : entry.gives).push(row.card_id);
  }
  const records = await responseRecords(db, [...byUser.keys()], now);
  const candidates = [...byUser].map(([id, entry]): TradeCandidate => {
    const record = records.get(id) ?? { rooms: 0, answered: 0, replyRate: null, typicalReplySeconds: null };
    return {
      userId: id,
      displayName: entry.displayName,
      lastActiveAt: entry.lastActiveAt.toISOString(),
      record,
      answersRarely: answersRarely(record),
      pairCount: entry.pairCount,
      pairs: pairUp(index, entry.gets, entry.gives, costs).slice(0, pairsShown),
    };
  });
  // Pairs, then the response record (those who rarely answer after the others), then last activity.
  candidates.sort(
    (a, b) =>
      b.pairCount - a.pairCount ||
      Number(a.answersRarely) - Number(b.answersRarely) ||
      Date.parse(b.lastActiveAt) - Date.parse(a.lastActiveAt) ||
      (a.userId < b.userId ? -1 : 1),
  );
  const shown = candidates.slice(0, CANDIDATE_LIMIT);
  return { candidates: shown, emptyReason: shown.length ? null : "none", settings };
}

/**
 * A player's kept result answers while the board version it was computed under stands (trade
 * rules, offers, blocks, suspensions and display names publish "board"), while their own inputs
 * are unchanged (candidateStamp) and for CANDIDATE_CACHE_TTL_MS at most: other players'
 * collections, want lists and settings publish nothing, so their changes show within a minute.
 */
const CANDIDATE_CACHE_TTL_MS = 60_000;
const CANDIDATE_CACHE_MAX_KEYS = 1_000;
/**
 * Finder computations running at once on this instance; the rest wait their turn. Each reads its
 * player's own rows and one short row per scanned player (docs/decisions/049), tens of
 * milliseconds, but a burst of players opening the page together still should not take every
 * connection of the pool from the other pages.
 */
export const FINDER_CONCURRENCY = 2;

type KeptEntry = { version: number; stamp: string; value: Promise<unknown> };

const candidateCache = createCache<KeptEntry>({ name: "trade-candidates", max: CANDIDATE_CACHE_MAX_KEYS, ttlMs: CANDIDATE_CACHE_TTL_MS });
// The friend board's counts, one per reader and page: kept apart, so browsing the board does not
// push out the finder's expensive lists.
const countCache = createCache<KeptEntry>({ name: "trade-candidate-counts", max: CANDIDATE_CACHE_MAX_KEYS, ttlMs: CANDIDATE_CACHE_TTL_MS });
// Waiting requests are bounded by the requests the server holds; a waiting one costs no connection.
const finderPool = createWorkPool({ concurrency: FINDER_CONCURRENCY, maxWaiting: Number.POSITIVE_INFINITY });

/**
 * The player's own inputs, read in one cheap statement on each request: their settings' update
 * time, the number and latest update of their collection rows and of their want list (a deletion
 * changes the count, an add or a count change moves the latest time), and how many blocks they
 * are part of either way.
 */
async function candidateStamp(db: Db, userId: string): Promise<string> {
  const [row] = await rowsOf<Record<string, string | null>>(
    db,
    sql`select (select updated_at::text from collection_settings where user_id = ${userId}) as settings,
               (select count(*)::text || '/' || coalesce(max(updated_at)::text, '') from collection_cards where user_id = ${userId}) as cards,
               (select count(*)::text || '/' || coalesce(max(created_at)::text, '') from wanted_cards where user_id = ${userId}) as wanted,
               (select count(*)::text from blocks where blocker_id = ${userId} or blocked_id = ${userId}) as blocks`,
  );
  return [row?.settings ?? "", row?.cards, row?.wanted, row?.blocks].join("|");
}

/**
 * A finder answer for `userId` (`what` names which one), kept while the board version and the
 * player's own inputs stand and for CANDIDATE_CACHE_TTL_MS at most; else one computation shared
 * by the player's concurrent requests.
 */
async function kept<T>(db: Db, userId: string, what: string, compute: () => Promise<T>, cache = candidateCache): Promise<T> {
  const key = `${scopeOf(db)}:${userId}:${what}`;
  // Read before computing: a change made during the computation moves them for the next request.
  const version = changeVersion("board");
  const stamp = await candidateStamp(db, userId);
  const hit = cache.get(key);
  if (hit && hit.version === version && hit.stamp === stamp) return hit.value as Promise<T>;
  const entry: KeptEntry = { version, stamp, value: compute() };
  cache.set(key, entry);
  entry.value.catch(() => cache.get(key) === entry && cache.delete(key));
  return entry.value as Promise<T>;
}

/**
 * My トレード候補, ranked (CANDIDATE_LIMIT players, PAIRS_SHOWN pairs each), computed in the
 * finder pool (it reads every active player's collection).
 */
export async function listTradeCandidates(db: Db, userId: string): Promise<CandidatesResult> {
  return kept(db, userId, "all", () => finderPool.enter()!.run(() => candidatesFor(db, userId, null, PAIRS_SHOWN)));
}

/**
 * My トレード候補 for these cards only (a deck's missing cards), in place of what my settings say I
 * want: the players whose spare cards include them and who want cards I have spare.
 */
export async function listTradeCandidatesWanting(db: Db, userId: string, wanting: readonly string[]): Promise<CandidatesResult> {
  const cards = [...new Set(wanting)].sort();
  return kept(db, userId, `wanting:${cards.join(",")}`, () => finderPool.enter()!.run(() => candidatesFor(db, userId, null, PAIRS_SHOWN, cards)));
}

/**
 * One player as my candidate (PAIRS_SHOWN pairs), or null when they are not one now: the page a
 * friend-board post links to, whether or not they rank among my CANDIDATE_LIMIT (`wanting`: for
 * a deck's missing cards, as listTradeCandidatesWanting). One player's
 * rows are a light statement, so this does not wait for the finder pool.
 */
export async function tradeCandidateWith(db: Db, userId: string, partnerId: string, wanting: readonly string[] | null = null): Promise<TradeCandidate | null> {
  if (partnerId === userId) return null;
  const cards = wanting ? [...new Set(wanting)].sort() : null;
  return kept(db, userId, `with:${partnerId}${cards ? `:wanting:${cards.join(",")}` : ""}`, async () => (await candidatesFor(db, userId, [partnerId], PAIRS_SHOWN, cards)).candidates[0] ?? null);
}

/**
 * How many pairs I have with each of these players (a page of the friend board), for those who
 * are my candidates now; the others are absent. Nothing when I do not use my collection for trades.
 */
export async function tradeCandidateCounts(db: Db, userId: string, partnerIds: readonly string[]): Promise<Map<string, number>> {
  const others = [...new Set(partnerIds)].filter((id) => id !== userId).sort();
  if (!others.length) return new Map();
  return kept(db, userId, `counts:${others.join(",")}`, async () => {
    const { rows } = await findRows(db, userId, others);
    return new Map(rows.map((row) => [row.user_id, Number(row.pair_count)]));
  }, countCache);
}

/**
 * Tests and the bench: my トレード候補 computed now (never kept) with another way of finding the
 * rows, to compare it with the summaries' finder on the same data.
 */
export function tradeCandidatesUsing(
  db: Db,
  userId: string,
  finder: CandidateRowFinder,
  options: { onlyPartners?: readonly string[] | null; wanting?: readonly string[] | null } = {},
): Promise<CandidatesResult> {
  return candidatesFor(db, userId, options.onlyPartners ?? null, PAIRS_SHOWN, options.wanting ?? null, finder);
}

/** Tests: forget every kept result, as if each had expired. */
export function forgetTradeCandidates(): void {
  candidateCache.clear();
  countCache.clear();
}

export type ProposalPair = { give: string; get: string };

/**
 * One tap on a candidate's pairs: checks the pairs against the finder now (they must still be
 * spare, wanted, same rarity and tradeable), posts an offer giving my cards and wanting theirs
 * (the board's own service: its limits and rules apply), opens its room with that player, and
 * sends the room's first message naming the pairs, which notifies them through the channels they
 * chose. If the room cannot open, the offer just posted is deleted again.
 */
export async function proposeTrade(
  db: Db,
  userId: string,
  partnerId: string,
  pairs: readonly ProposalPair[],
  locale: Locale,
  options: { wanting?: readonly string[] | null } = {},
): Promise<{ roomId: string; offerId: string }> {
  const wanting = options.wanting ?? null;
  return oneProposalAtATime(`${scopeOf(db)}:${userId}`, async () => {
    // Two taps landing on two instances at once: while one is being made, the database refuses
    // the other; once made (or refused), sameProposal answers a repeat, or it may be sent again.
    // The count is taken first, so a proposal finished between the check and the take is seen.
    const once = proposalOnce(partnerId, pairs);
    const action = `${once.limit.name}/minute`;
    const [{ window }] = await rowsOf<{ window: string }>(db, sql`select date_trunc('minute', now())::text as window`);
    const taken = await once.take(userId, db);
    try {
      // A row of the minute before is one still being made across the minute's turn (rows are
      // deleted when a proposal ends).
      const [earlier] = await rowsOf<{ x: number }>(
        db,
        sql`select 1 as x from trade_rate_limits where user_id = ${userId} and action = ${action}
              and window_start = date_trunc('minute', now()) - interval '1 minute' limit 1`,
      );
      if (!taken || earlier) throw new CollectionError("proposal_in_progress");
      return (await sameProposal(db, userId, partnerId, pairs)) ?? (await newProposal(db, userId, partnerId, pairs, locale, wanting));
    } finally {
      // Its own row, counted in the minute it began (the proposal may end in the next one).
      if (taken) {
        await db.execute(sql`delete from trade_rate_limits where user_id = ${userId} and action = ${action} and window_start >= ${window}::timestamptz`).catch(() => undefined);
      }
    }
  });
}

/** This very proposal (partner and pairs) as a count in the database: one at a time. */
function proposalOnce(partnerId: string, pairs: readonly ProposalPair[]) {
  const proposal = [partnerId, ...pairs.map((p) => `${p.give}|${p.get}`).sort()].join(",");
  return databaseLimit({ name: `trade-proposal:${createHash("sha256").update(proposal).digest("hex").slice(0, 24)}`, max: 1, window: "minute" });
}

/** A second tap within this long of a proposal with the same partner and pairs opens the first. */
const SAME_PROPOSAL_MINUTES = 10;

/**
 * The proposal already made: my open offer, posted in the last SAME_PROPOSAL_MINUTES, giving
 * exactly these cards and wanting exactly those, with its room with this partner still standing.
 * A double tap, a resent form or a reload then opens that room instead of posting a second offer.
 */
async function sameProposal(db: Db, userId: string, partnerId: string, pairs: readonly ProposalPair[]): Promise<{ roomId: string; offerId: string } | null> {
  const cards = [...new Set([...pairs.map((p) => `give:${p.give}`), ...pairs.map((p) => `want:${p.get}`)])].sort();
  if (!cards.length) return null;
  const [row] = await rowsOf<{ room_id: string; offer_id: string }>(
    db,
    sql`select r.id as room_id, o.id as offer_id
        from trade_offers o join chat_rooms r on r.offer_id = o.id and r.partner_id = ${partnerId} and r.cancelled_at is null
        where o.owner_id = ${userId} and ${offerOpenNow()} and o.created_at > now() - make_interval(mins => ${SAME_PROPOSAL_MINUTES})
          and (select array_agg(c.side || ':' || c.card_id order by c.side || ':' || c.card_id collate "C") from trade_offer_cards c where c.offer_id = o.id) = ${textArray(cards)}
        order by o.created_at desc
        limit 1`,
  );
  return row ? { roomId: row.room_id, offerId: row.offer_id } : null;
}

const proposalsRunning = new Map<string, Promise<unknown>>();

/**
 * One proposal of a player at a time on this instance, so that the second of two taps arriving
 * together finds the first one's offer (sameProposal) instead of racing it; across instances,
 * proposalOnce refuses the second.
 */
async function oneProposalAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
  const before = proposalsRunning.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(run);
  proposalsRunning.set(key, mine);
  try {
    return await mine;
  } finally {
    if (proposalsRunning.get(key) === mine) proposalsRunning.delete(key);
  }
}

async function newProposal(db: Db, userId: string, partnerId: string, pairs: readonly ProposalPair[], locale: Locale, wanting: readonly string[] | null): Promise<{ roomId: string; offerId: string }> {
  // Never from the kept result: a proposal checks the truth now (one partner, a light statement),
  // under the wants the page showed (a deck's missing cards, or my settings').
  const found = await candidatesFor(db, userId, [partnerId], Number.MAX_SAFE_INTEGER, wanting);
  if (found.emptyReason === "not_opted_in") throw new CollectionError("not_opted_in");
  const candidate = found.candidates.find((c) => c.userId === partnerId);
  if (!candidate) throw new CollectionError("unknown_partner");
  const chosen = [...new Map(pairs.map((p) => [`${p.give}\u0000${p.get}`, p])).values()];
  if (!chosen.length || chosen.length > MAX_CARDS_PER_SIDE) throw new CollectionError("invalid");
  const gives = new Map(candidate.pairs.map((p) => [p.give.id, p.give]));
  const gets = new Map(candidate.pairs.map((p) => [p.get.id, p.get]));
  for (const pair of chosen) {
    const give = gives.get(pair.give);
    const get = gets.get(pair.get);
    if (!give || !get || displayRarity(give.rarity) !== displayRarity(get.rarity)) throw new CollectionError("pair_not_available");
  }
  if (new Set(chosen.map((p) => p.give)).size !== chosen.length || new Set(chosen.map((p) => p.get)).size !== chosen.length) throw new CollectionError("invalid");
  const { id: offerId } = await createOffer(db, userId, {
    give: chosen.map((p) => ({ cardId: p.give, count: 1 })),
    want: chosen.map((p) => ({ cardId: p.get, count: 1 })),
    comment: "",
  });
  let roomId: string;
  try {
    ({ roomId } = await openChatRoomWithPartner(db, { offerId, ownerId: userId, partnerId }));
  } catch (error) {
    // The room's refusal is the answer; a failing clean-up must not hide it.
    await deleteOffer(db, userId, offerId).catch(() => undefined);
    throw error;
  }
  const name = (card: CandidateCard) => (locale === "en" ? card.nameEn || card.name : card.name);
  const line = chosen.map((p) => `${name(gives.get(p.give)!)} ⇄ ${name(gets.get(p.get)!)}（${displayRarity(gives.get(p.give)!.rarity)}）`).join("、");
  try {
    await sendMessage(db, { roomId, userId, clientId: `proposal-${offerId}`, body: translate(collectionMessages, locale, "proposeMessage", { pairs: line }) });
  } catch (error) {
    // The proposal did not reach them (they blocked me meanwhile, left, a database failure): its
    // offer leaves the board rather than stay open beside a silent room.
    await closeOffer(db, userId, offerId).catch(() => undefined);
    throw error;
  }
  return { roomId, offerId };
}
