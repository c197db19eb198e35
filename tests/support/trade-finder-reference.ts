import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { wantStillOpen } from "#app/db/open-wants.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import type { TradeCard } from "#app/features/collection/trade-sides.server.ts";
import { CANDIDATE_LIMIT, PAIRS_SHOWN, scannedPlayersChosen, type CandidateRowFinder, type FoundRow } from "#app/features/trade-candidates/trade-candidates.server.ts";

/**
 * The finder's statement before the collection summaries (docs/decisions/041, 049): every
 * scanned player's collection range read and anti-joined against my spare cards. Kept here as
 * the reference the summaries' finder must agree with (tests/integration/trade-finder-summaries
 * and bench:trade-candidates, which measures both in one run).
 */
const PAIRS_PER_RARITY = PAIRS_SHOWN;
const PRE_RANK_LIMIT = CANDIDATE_LIMIT * 3;
const textArray = (list: readonly string[]) => sql`array[${sql.join(list.map((v) => sql`${v}`), sql`, `)}]::text[]`;

/** The reference finder; `explain` receives the statement's EXPLAIN ANALYZE before it runs. */
export function referenceFinder(explain?: (plan: string) => void): CandidateRowFinder {
  return (db, userId, spare, wants, onlyPartners) => findCandidateRowsBySql(db, userId, spare, wants, onlyPartners, explain);
}

async function findCandidateRowsBySql(
  db: Db,
  userId: string,
  spare: readonly TradeCard[],
  wants: readonly TradeCard[],
  onlyPartners: readonly string[] | null,
  explain?: (plan: string) => void,
): Promise<FoundRow[]> {
  const spareRows = spare.flatMap((c) => (c.sets.length ? c.sets : [""]).map((set) => ({ id: c.id, rarity: c.rarity, set })));
  const statement = sql`with players as materialized (
          select s.user_id, s.keep_count, s.trade_rarities, s.want_mode, s.want_sets, p.display_name, p.last_active_at
          ${scannedPlayersChosen(userId, onlyPartners)}
        ),
        my_wants as (select * from unnest(${textArray(wants.map((c) => c.id))}, ${textArray(wants.map((c) => c.rarity))}) as w(card_id, rarity)),
        my_spare as (select * from unnest(${textArray(spareRows.map((c) => c.id))}, ${textArray(spareRows.map((c) => c.rarity))}, ${textArray(spareRows.map((c) => c.set))}) as s(card_id, rarity, set_code)),
        gets as (
          select pl.user_id, w.card_id, w.rarity
          from players pl join collection_cards cc on cc.user_id = pl.user_id
          join my_wants w on w.card_id = cc.card_id
          where cc.count > pl.keep_count and (pl.trade_rarities is null or w.rarity = any(pl.trade_rarities))
        ),
        givers as (select distinct user_id from gets),
        gives as (
          select distinct pl.user_id, sp.card_id, sp.rarity
          from givers g join players pl on pl.user_id = g.user_id cross join my_spare sp
          where (pl.trade_rarities is null or sp.rarity = any(pl.trade_rarities))
            and ((pl.want_mode in ('wants', 'both')
                  and exists (select 1 from wanted_cards wc where wc.user_id = pl.user_id and wc.card_id = sp.card_id and ${wantStillOpen("wc")})
                  -- A card they have spare is one they give, not one they want (as on my side).
                  and not exists (select 1 from collection_cards theirs
                                  where theirs.user_id = pl.user_id and theirs.card_id = sp.card_id and theirs.count > pl.keep_count))
              or (pl.want_mode in ('missing', 'both') and (pl.want_sets is null or sp.set_code = any(pl.want_sets))
                  and not exists (select 1 from collection_cards mine where mine.user_id = pl.user_id and mine.card_id = sp.card_id)))
        ),
        per_rarity as (
          select g.user_id, g.rarity, least(g.n, s.n) as fitting
          from (select user_id, rarity, count(*) as n from gets group by user_id, rarity) g
          join (select user_id, rarity, count(*) as n from gives group by user_id, rarity) s on s.user_id = g.user_id and s.rarity = g.rarity
        ),
        ranked as (
          select pr.user_id, sum(pr.fitting)::int as pair_count, pl.display_name, pl.last_active_at
          from per_rarity pr join players pl on pl.user_id = pr.user_id
          group by pr.user_id, pl.display_name, pl.last_active_at
          order by pair_count desc, pl.last_active_at desc, pr.user_id
          limit ${PRE_RANK_LIMIT}
        ),
        picked as (
          select x.side, x.user_id, x.card_id, x.rarity,
                 row_number() over (partition by x.user_id, x.side, x.rarity order by x.card_id) as n
          from (select 'get' as side, user_id, card_id, rarity from gets union all select 'give' as side, user_id, card_id, rarity from gives) x
          where x.user_id in (select user_id from ranked)
        )
        select p.side, p.user_id, p.card_id, p.rarity, r.pair_count, r.display_name, r.last_active_at
        from picked p join ranked r on r.user_id = p.user_id
        where p.n <= ${PAIRS_PER_RARITY}`;
  if (explain) {
    const plan = await rowsOf<{ "QUERY PLAN": string }>(db, sql`explain (analyze, buffers) ${statement}`);
    explain(plan.map((row) => row["QUERY PLAN"]).join("\n"));
  }
  return rowsOf<FoundRow>(db, statement);
}
