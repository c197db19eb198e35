// The finder of トレード候補 (docs/decisions/041 and 049): whom it scans, in one short statement
// over the players' collection summaries, and which cards of theirs pair with mine. Ranking,
// keeping results, proposals and counts are trade-candidates.server.ts.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import type { CardIndex } from "#app/features/cards/card-index.server.ts";
import type { TradeCard } from "#app/features/collection/trade-sides.server.ts";

/**
 * トレード候補 (docs/decisions/041-trade-candidates.md): players who opted in, were active in the
 * last ACTIVE_DAYS, are not blocked either way and are not suspended or deleted, whose spare cards
 * (owned above what they keep, in rarities they trade) include cards I want, and who want cards I
 * have spare; same-rarity pairs only, under the trade rules read at the time asked.
 */
export const ACTIVE_DAYS = 14;
/** Candidates shown. */
export const CANDIDATE_LIMIT = 30;
/** Pairs shown per candidate (all are counted for the ranking). */
export const PAIRS_SHOWN = 12;
/** Cards read back per candidate, side and rarity: enough for PAIRS_SHOWN pairs of one rarity. */
const PAIRS_PER_RARITY = PAIRS_SHOWN;
/**
 * Candidates the database ranks by pairs and last activity before the response record reorders
 * them: the record only moves a player who rarely answers behind others with the same number of
 * pairs, so three times the list is enough headroom.
 */
const PRE_RANK_LIMIT = CANDIDATE_LIMIT * 3;
/**
 * The most recently active opted-in players the finder reads the collection summaries of: the bound
 * on its work, whatever the number of players (each is one short row, docs/decisions/049).
 */
export const PLAYERS_SCANNED = 300;

export const textArray = (list: readonly string[]) => sql`array[${sql.join(list.map((v) => sql`${v}`), sql`, `)}]::text[]`;

/** A card of their side the finder read back: they give it to me (`get`) or want it from me (`give`). */
export type FoundRow = { side: "get" | "give"; user_id: string; card_id: string; rarity: string; pair_count: number; display_name: string; last_active_at: Date | string };

/** Finds the candidates' rows from my side (a statement per call); the summaries' finder below, or another for comparison. */
export type CandidateRowFinder = (db: Db, userId: string, spare: readonly TradeCard[], wants: readonly TradeCard[], onlyPartners: readonly string[] | null, index: CardIndex) => Promise<FoundRow[]>;

/** The players the finder considers, with what it needs of each: their trade settings and their collection summary. */
/**
 * Whom the finder scans, as a FROM … LIMIT clause over settings `s` and profiles `p`: opted in,
 * active in the last ACTIVE_DAYS, not blocked either way, not suspended or deleted, the
 * PLAYERS_SCANNED most recently active. It walks profiles_last_active_idx from the most recently
 * active and stops at the limit (nulls last as the index is kept; the column is never null).
 */
export function scannedPlayersChosen(userId: string, onlyPartners: readonly string[] | null): SQL {
  return sql`from collection_settings s join profiles p on p.user_id = s.user_id
        where s.use_for_trades and s.user_id <> ${userId} ${onlyPartners ? sql`and s.user_id = any(${textArray(onlyPartners)})` : sql``}
          and p.suspended_at is null and p.deleted_at is null
          and p.last_active_at >= now() - make_interval(days => ${ACTIVE_DAYS})
          and not exists (select 1 from blocks b
                          where (b.blocker_id = ${userId} and b.blocked_id = s.user_id)
                             or (b.blocker_id = s.user_id and b.blocked_id = ${userId}))
        order by p.last_active_at desc nulls last, p.user_id
        limit ${PLAYERS_SCANNED}`;
}

export function scannedPlayers(userId: string, onlyPartners: readonly string[] | null): SQL {
  // The players are chosen first and only the chosen ones' summaries (~1.4 KB each) are read: at
  // 20,000 opted-in players, joining every summary before keeping the 300 most recently active
  // read and sorted 28 MB for each computation.
  return sql`with chosen as (
        select s.user_id, s.trade_rarities, s.want_mode, s.want_sets, p.display_name, p.last_active_at
        ${scannedPlayersChosen(userId, onlyPartners)})
      select c.user_id, c.trade_rarities, c.want_mode, c.want_sets, c.display_name, c.last_active_at, cs.owned, cs.spare, cs.wanted
      from chosen c left join collection_summaries cs on cs.user_id = c.user_id
      order by c.last_active_at desc nulls last, c.user_id`;
}

type ScannedPlayer = {
  user_id: string;
  trade_rarities: string[] | null;
  want_mode: string;
  want_sets: string[] | null;
  display_name: string;
  last_active_at: Date | string;
  owned: Uint8Array | null;
  spare: Uint8Array | null;
  wanted: Uint8Array | null;
};

/** Bit `bit` of a summary bitmap (docs/decisions/049): past its end, or no summary at all, is 0. */
const hasBit = (bits: Uint8Array | null, bit: number) => bits !== null && bit >> 3 < bits.length && (bits[bit >> 3] & (1 << (bit & 7))) !== 0;

const byCardId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One short statement: the players (opted in, active, not blocked, not suspended or deleted; the
 * most recently active PLAYERS_SCANNED), each with their collection summary — bitmaps over the
 * cards' trade bits of what they own, have spare and want (docs/decisions/049), kept by the
 * database with every change. Then in memory: the cards of my wants they have spare, the cards
 * of my spare they want (on their want list, or missing from their chosen sets), both in
 * rarities they trade; pairs per player (per rarity, the smaller side); the PRE_RANK_LIMIT best
 * by pairs, then last activity; and at most PAIRS_PER_RARITY of their cards per side and rarity.
 */
export const findCandidateRows: CandidateRowFinder = async (db, userId, spare, wants, onlyPartners, index) => {
  const bitOf = (card: TradeCard) => index.byId.get(card.id)?.tradeBit ?? -1;
  const myWants = wants.map((card) => ({ ...card, bit: bitOf(card) })).filter((card) => card.bit >= 0);
  const mySpare = spare.map((card) => ({ ...card, bit: bitOf(card) })).filter((card) => card.bit >= 0);
  const players = await rowsOf<ScannedPlayer>(db, scannedPlayers(userId, onlyPartners));
  const found: { player: ScannedPlayer; pairCount: number; gets: Map<string, string[]>; gives: Map<string, string[]> }[] = [];
  for (const player of players) {
    const rarities = player.trade_rarities ? new Set(player.trade_rarities) : null;
    const gets = new Map<string, string[]>();
    for (const card of myWants) {
      if ((rarities && !rarities.has(card.rarity)) || !hasBit(player.spare, card.bit)) continue;
      const list = gets.get(card.rarity);
      if (list) list.push(card.id);
      else gets.set(card.rarity, [card.id]);
    }
    if (!gets.size) continue;
    const fromList = player.want_mode === "wants" || player.want_mode === "both";
    const missing = player.want_mode === "missing" || player.want_mode === "both";
    const sets = player.want_sets ? new Set(player.want_sets) : null;
    const gives = new Map<string, string[]>();
    for (const card of mySpare) {
      // A rarity they give me nothing of pairs with nothing.
      if (!gets.has(card.rarity) || (rarities && !rarities.has(card.rarity))) continue;
      const wanted =
        (fromList && hasBit(player.wanted, card.bit)) ||
        (missing && (!sets || card.sets.some((code) => sets.has(code))) && !hasBit(player.owned, card.bit));
      if (!wanted) continue;
      const list = gives.get(card.rarity);
      if (list) list.push(card.id);
      else gives.set(card.rarity, [card.id]);
    }
    let pairCount = 0;
    for (const [rarity, list] of gives) pairCount += Math.min(list.length, gets.get(rarity)!.length);
    if (pairCount > 0) found.push({ player, pairCount, gets, gives });
  }
  // Stable: players with as many pairs stay in the statement's order, last activity first.
  found.sort((a, b) => b.pairCount - a.pairCount);
  const rows: FoundRow[] = [];
  for (const { player, pairCount, gets, gives } of found.slice(0, PRE_RANK_LIMIT)) {
    for (const [side, lists] of [["get", gets], ["give", gives]] as const) {
      for (const [rarity, ids] of lists) {
        if (!gets.has(rarity) || !gives.has(rarity)) continue;
        for (const id of [...ids].sort(byCardId).slice(0, PAIRS_PER_RARITY)) {
          rows.push({ side, user_id: player.user_id, card_id: id, rarity, pair_count: pairCount, display_name: player.display_name, last_active_at: player.last_active_at });
        }
      }
    }
  }
  return rows;
};

/** Pairs one card I get with one card I give, per rarity, in the catalogue's order. */
