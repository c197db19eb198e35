import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { addDays, tokyoDay, tokyoDayStart } from "./salt.server";

/**
 * Daily rollups: the dashboard reads analytics_daily (one row per day, dimension and value) and
 * analytics_offer_funnel (one row per offer), never the raw events. Today is recomputed every few
 * minutes; a day is finalised once after midnight JST. Every computation holds one advisory lock,
 * so several instances never compute the same day at once (the others skip their turn).
 *
 * A visit is a run of one visitor's page views without a gap over 30 minutes (as Plausible and
 * Umami count them); visitors are per day (the hash changes with the daily salt).
 */
export const VISIT_GAP_MINUTES = 30;
const ROLLUP_LOCK = 0x616e_6c74; // "anlt"

export const DIMENSIONS = [
  "site", "page", "kind", "entry", "exit", "source", "channel", "utm_source", "utm_medium", "utm_campaign",
  "browser", "os", "device", "screen", "lang", "hour", "event", "content",
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Recomputes one Tokyo day; false when another instance holds the lock. */
export async function computeDay(db: Db, day: string, options: { finalise?: boolean } = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [lock] = await rowsOf<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`);
    if (!lock.ok) return false;
    const [done] = await rowsOf<{ finalised: boolean }>(tx, sql`select finalised_at is not null as finalised from analytics_rollup_days where day = ${day}`);
    if (done?.finalised) return true;
    await rollupDay(tx, day);
    await funnelDay(tx, day);
    await tx.execute(
      sql`insert into analytics_rollup_days (day, finalised_at, computed_at) values (${day}, ${options.finalise ? sql`now()` : null}, now())
          on conflict (day) do update set finalised_at = excluded.finalised_at, computed_at = now()`,
    );
    return true;
  });
}

/** Today again, and every past day not yet final (yesterday after midnight; missed days after downtime). */
export async function runRollups(db: Db, now = new Date()): Promise<{ today: string; finalised: string[] }> {
  const today = tokyoDay(now);
  const pending = await rowsOf<{ day: string }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day from analytics_rollup_days where finalised_at is null and day < ${today} order by day`,
  );
  const days = new Set(pending.map((p) => p.day));
  days.add(addDays(today, -1));
  const finalised: string[] = [];
  for (const day of [...days].sort()) {
    if (await computeDay(db, day, { finalise: true })) finalised.push(day);
  }
  await computeDay(db, today);
  return { today, finalised };
}

async function rollupDay(tx: Queryable, day: string): Promise<void> {
  const start = tokyoDayStart(day).toISOString();
  const end = tokyoDayStart(addDays(day, 1)).toISOString();
  await tx.execute(sql`delete from analytics_daily where day = ${day}`);
  await tx.execute(sql`
    insert into analytics_daily (day, dim, value, visitors, visits, pageviews, entries, exits, bounces, duration_s, engaged_ms, posted_visitors, traded_visitors)
    with pv as (
      select visitor, ts, coalesce(path, '') as path, coalesce(page_kind, 'other') as page_kind, coalesce(referrer_host, '') as source, coalesce(channel, 'direct') as channel,
        coalesce(utm_source, '') as utm_source, coalesce(utm_medium, '') as utm_medium, coalesce(utm_campaign, '') as utm_campaign,
        coalesce(browser, 'unknown') as browser, coalesce(os, 'unknown') as os, coalesce(device, 'other') as device,
        coalesce(screen, '') as screen, coalesce(lang, '') as lang,
        case when ts - lag(ts) over (partition by visitor order by ts) <= make_interval(mins => ${VISIT_GAP_MINUTES}) then 0 else 1 end as starts
      from analytics_events
      where kind = 'pageview' and visitor is not null and ts >= ${start} and ts < ${end}
    ),
    numbered as (
      select *, sum(starts) over (partition by visitor order by ts rows unbounded preceding) as visit_no from pv
    ),
    visits as (
      select visitor, visit_no, count(*)::int as pageviews,
        floor(extract(epoch from max(ts) - min(ts)))::bigint as duration_s,
        (array_agg(path order by ts))[1] as entry_path, (array_agg(path order by ts desc))[1] as exit_path,
        (array_agg(source order by ts))[1] as source, (array_agg(channel order by ts))[1] as channel,
        (array_agg(utm_source order by ts))[1] as utm_source, (array_agg(utm_medium order by ts))[1] as utm_medium,
        (array_agg(utm_campaign order by ts))[1] as utm_campaign
      from numbered group by visitor, visit_no
    ),
    eng as (
      select visitor, coalesce(path, '') as path, coalesce(page_kind, 'other') as page_kind, engaged_ms from analytics_events
      where kind = 'engagement' and visitor is not null and ts >= ${start} and ts < ${end}
    ),
    by_visit(dim, value, visitor, pageviews, bounce, duration_s) as (
      select 'source', source, visitor, pageviews, pageviews = 1, duration_s from visits
      union all select 'channel', channel, visitor, pageviews, pageviews = 1, duration_s from visits
      union all select 'utm_source', utm_source, visitor, pageviews, pageviews = 1, duration_s from visits where utm_source <> ''
      union all select 'utm_medium', utm_medium, visitor, pageviews, pageviews = 1, duration_s from visits where utm_medium <> ''
      union all select 'utm_campaign', utm_campaign, visitor, pageviews, pageviews = 1, duration_s from visits where utm_campaign <> ''
      union all select 'entry', entry_path, visitor, pageviews, pageviews = 1, duration_s from visits
      union all select 'exit', exit_path, visitor, pageviews, pageviews = 1, duration_s from visits
    ),
    by_view(dim, value, visitor, visit_no) as (
      select 'page', path, visitor, visit_no from numbered
      union all select 'kind', page_kind, visitor, visit_no from numbered
      union all select 'browser', browser, visitor, visit_no from numbered
      union all select 'os', os, visitor, visit_no from numbered
      union all select 'device', device, visitor, visit_no from numbered
      union all select 'screen', screen, visitor, visit_no from numbered where screen <> ''
      union all select 'lang', lang, visitor, visit_no from numbered where lang <> ''
      union all select 'hour', to_char(ts at time zone 'Asia/Tokyo', 'HH24'), visitor, visit_no from numbered
    ),
    engaged_by(dim, value, ms) as (
      select 'page', path, sum(engaged_ms) from eng group by path
      union all select 'kind', page_kind, sum(engaged_ms) from eng group by page_kind
    ),
    readers as (
      select distinct on (n.visitor, n.path) n.visitor, n.path, n.ts from numbered n
      where n.page_kind in ('article', 'deck') order by n.visitor, n.path, n.ts
    ),
    acts as (
      select l.visitor, e.kind, e.ts from analytics_events e
      join analytics_visitor_users l on l.day = ${day}
        and (l.user_id = e.user_id or (e.kind = 'trade_completed' and l.user_id = (select o.owner_id from trade_offers o where o.id = e.offer_id)))
      where e.kind in ('offer_posted', 'trade_completed') and e.ts >= ${start} and e.ts < ${end}
    ),
    content as (
      select r.path, count(*)::int as readers,
        count(*) filter (where exists (select 1 from acts a where a.visitor = r.visitor and a.kind = 'offer_posted' and a.ts > r.ts))::int as posted,
        count(*) filter (where exists (select 1 from acts a where a.visitor = r.visitor and a.kind = 'trade_completed' and a.ts > r.ts))::int as traded
      from readers r group by r.path
    )
    select ${day}::date, 'site', '', (select count(distinct visitor) from pv)::int, count(*)::int, coalesce(sum(pageviews), 0)::int,
      0, 0, count(*) filter (where pageviews = 1)::int, coalesce(sum(duration_s), 0)::bigint,
      (select coalesce(sum(engaged_ms), 0) from eng)::bigint, 0, 0
    from visits having count(*) > 0
    union all
    select ${day}::date, dim, value, count(distinct visitor)::int, count(*)::int, sum(pageviews)::int,
      case when dim = 'entry' then count(*)::int else 0 end, case when dim = 'exit' then count(*)::int else 0 end,
      count(*) filter (where bounce)::int, sum(duration_s)::bigint, 0, 0, 0
    from by_visit group by dim, value
    union all
    select ${day}::date, v.dim, v.value, count(distinct v.visitor)::int, count(distinct (v.visitor, v.visit_no))::int, count(*)::int,
      0, 0, 0, 0, coalesce(max(g.ms), 0)::bigint, 0, 0
    from by_view v left join engaged_by g on g.dim = v.dim and g.value = v.value group by v.dim, v.value
    union all
    select ${day}::date, 'event', kind, count(distinct user_id)::int, 0, count(*)::int, 0, 0, 0, 0, 0, 0, 0
    from analytics_events
    where kind not in ('pageview', 'engagement') and ts >= ${start} and ts < ${end} group by kind
    union all
    select ${day}::date, 'content', path, readers, 0, 0, 0, 0, 0, 0, 0, posted, traded from content
  `);
}

/**
 * The per-offer funnel: offers posted this day get their row (with the poster's first source of
 * the day, through the day's visitor links); steps that happened this day fill in their times.
 */
async function funnelDay(tx: Queryable, day: string): Promise<void> {
  const start = tokyoDayStart(day).toISOString();
  const end = tokyoDayStart(addDays(day, 1)).toISOString();
  await tx.execute(sql`
    insert into analytics_offer_funnel (offer_id, day, posted_at, first_channel, first_source)
    select p.offer_id, ${day}::date, min(p.ts),
      coalesce((array_agg(f.channel order by f.ts) filter (where f.ts is not null))[1], 'direct'),
      coalesce((array_agg(coalesce(f.referrer_host, '') order by f.ts) filter (where f.ts is not null))[1], '')
    from analytics_events p
    left join lateral (
      select v.channel, v.referrer_host, v.ts from analytics_visitor_users l
      join analytics_events v on v.kind = 'pageview' and v.visitor = l.visitor and v.ts >= ${start} and v.ts <= p.ts
      where l.day = ${day} and l.user_id = p.user_id
      order by v.ts limit 1
    ) f on true
    where p.kind = 'offer_posted' and p.offer_id is not null and p.ts >= ${start} and p.ts < ${end}
    group by p.offer_id
    on conflict (offer_id) do update set posted_at = excluded.posted_at, first_channel = excluded.first_channel, first_source = excluded.first_source
  `);
  await tx.execute(sql`
    update analytics_offer_funnel f set
      matched_at = least(f.matched_at, s.matched_at),
      room_opened_at = least(f.room_opened_at, s.room_opened_at, s.agreed_at),
      agreed_at = least(f.agreed_at, s.agreed_at),
      completed_at = least(f.completed_at, s.completed_at)
    from (
      select offer_id,
        min(ts) filter (where kind = 'matched') as matched_at,
        min(ts) filter (where kind = 'room_opened') as room_opened_at,
        min(ts) filter (where kind = 'terms_agreed') as agreed_at,
        min(ts) filter (where kind = 'trade_completed') as completed_at
      from analytics_events
      where kind in ('matched', 'room_opened', 'terms_agreed', 'trade_completed') and offer_id is not null and ts >= ${start} and ts < ${end}
      group by offer_id
    ) s
    where f.offer_id = s.offer_id
  `);
}
