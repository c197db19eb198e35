import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { csvLine } from "#app/lib/csv.ts";
import { z } from "#app/lib/zod.ts";
import { outboxFigures, type OutboxFigures } from "#app/features/outbox/outbox-figures.server.ts";
import { pageKindOf } from "./classify.server";
import { AnalyticsError } from "./errors";
import { addDays, tokyoDay } from "./salt.server";

/**
 * What the アクセス解析 tab shows, read from the daily rollups (and the per-offer funnel); only
 * the realtime box reads raw events, of the last five minutes. Visitors of a period are the sum
 * of daily visitors: the hash changes every day by design, so one person on two days is two.
 */

export type Period = { from: string; to: string };
export const RANGES = ["today", "7d", "30d", "90d", "custom"] as const;
export type Range = (typeof RANGES)[number];
const MAX_DAYS = 366;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day (2025-02-31 rolls over in JavaScript but PostgreSQL refuses it), year 1 or later. */
function isCalendarDay(day: string): boolean {
  if (!DAY_RE.test(day) || day.startsWith("0000")) return false;
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

export function daysIn(period: Period): number {
  return Math.round((Date.parse(period.to) - Date.parse(period.from)) / 86_400_000) + 1;
}

/**
 * The analytics tab's and its export's query (?range=&from=&to=&channel=&source=), read by the one
 * query reader (lib/query.ts): an unknown range is the default 7 days; custom dates are checked by
 * `periodOf`; "-" as the source picks offers whose poster came with no referrer that day.
 */
export const AnalyticsQuerySchema = z.object({
  range: z.enum(RANGES).catch("7d"),
  from: z.string().default(""),
  to: z.string().default(""),
  channel: z
    .string()
    .optional()
    .transform((value) => value?.slice(0, 40) || null),
  source: z
    .string()
    .optional()
    .transform((value) => (value === "-" ? "" : value?.slice(0, 200) || null)),
});
export type AnalyticsQuery = z.output<typeof AnalyticsQuerySchema>;
const DEFAULT_QUERY: AnalyticsQuery = { range: "7d", from: "", to: "", channel: null, source: null };

/** The period of the query (today in Japan by default 7 days); bad custom dates throw invalid_period. */
export function periodOf(query: Pick<AnalyticsQuery, "range" | "from" | "to">, now = new Date()): { range: Range; period: Period; previous: Period } {
  const today = tokyoDay(now);
  const { range, from, to } = query;
  let period: Period;
  if (range === "custom") {
    if (!isCalendarDay(from) || !isCalendarDay(to)) throw new AnalyticsError("invalid_period");
    period = { from, to };
    if (from > to || daysIn(period) > MAX_DAYS) throw new AnalyticsError("invalid_period");
  } else {
    const n = range === "today" ? 1 : Number(range.slice(0, -1));
    period = { from: addDays(today, -(n - 1)), to: today };
  }
  const n = daysIn(period);
  return { range, period, previous: { from: addDays(period.from, -n), to: addDays(period.from, -1) } };
}

export type Headline = {
  visitors: number;
  visits: number;
  pageviews: number;
  viewsPerVisit: number;
  bounceRate: number;
  visitDurationS: number;
  engagedS: number;
};

export async function headline(db: Db, period: Period): Promise<Headline> {
  const [r] = await rowsOf<Record<string, string | number | null>>(
    db,
    sql`select coalesce(sum(visitors), 0) as visitors, coalesce(sum(visits), 0) as visits, coalesce(sum(pageviews), 0) as pageviews,
          coalesce(sum(bounces), 0) as bounces, coalesce(sum(duration_s), 0) as duration_s, coalesce(sum(engaged_ms), 0) as engaged_ms
        from analytics_daily where dim = 'site' and day between ${period.from} and ${period.to}`,
  );
  const visits = Number(r.visits);
  const per = (x: number) => (visits ? x / visits : 0);
  return {
    visitors: Number(r.visitors),
    visits,
    pageviews: Number(r.pageviews),
    viewsPerVisit: per(Number(r.pageviews)),
    bounceRate: per(Number(r.bounces)),
    visitDurationS: per(Number(r.duration_s)),
    engagedS: per(Number(r.engaged_ms) / 1000),
  };
}

export type SeriesPoint = { label: string; visitors: number; pageviews: number };

/** One point per day, or per hour (JST) for a one-day period. */
export async function series(db: Db, period: Period): Promise<SeriesPoint[]> {
  if (period.from === period.to) {
    const rows = await rowsOf<{ value: string; visitors: number; pageviews: number }>(
      db,
      sql`select value, visitors, pageviews from analytics_daily where dim = 'hour' and day = ${period.from}`,
    );
    const byHour = new Map(rows.map((r) => [r.value, r]));
    return Array.from({ length: 24 }, (_, h) => {
      const key = String(h).padStart(2, "0");
      const r = byHour.get(key);
      return { label: `${key}:00`, visitors: Number(r?.visitors ?? 0), pageviews: Number(r?.pageviews ?? 0) };
    });
  }
  const rows = await rowsOf<{ day: string; visitors: number; pageviews: number }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, visitors, pageviews from analytics_daily where dim = 'site' and day between ${period.from} and ${period.to}`,
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const points: SeriesPoint[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) {
    const r = byDay.get(d);
    points.push({ label: d, visitors: Number(r?.visitors ?? 0), pageviews: Number(r?.pageviews ?? 0) });
  }
  return points;
}

export type TopRow = { value: string; visitors: number; visits: number; pageviews: number; entries: number; exits: number; bounces: number; engagedMs: number };

export async function top(db: Db, period: Period, dim: string, limit = 10): Promise<TopRow[]> {
  const rows = await rowsOf<Record<string, string | number>>(
    db,
    sql`select value, sum(visitors) as visitors, sum(visits) as visits, sum(pageviews) as pageviews, sum(entries) as entries,
          sum(exits) as exits, sum(bounces) as bounces, sum(engaged_ms) as engaged_ms
        from analytics_daily where dim = ${dim} and day between ${period.from} and ${period.to}
        group by value order by sum(visitors) desc, sum(pageviews) desc, value limit ${limit}`,
  );
  return rows.map((r) => ({
    value: String(r.value),
    visitors: Number(r.visitors),
    visits: Number(r.visits),
    pageviews: Number(r.pageviews),
    entries: Number(r.entries),
    exits: Number(r.exits),
    bounces: Number(r.bounces),
    engagedMs: Number(r.engaged_ms),
  }));
}

/** Top pages with their kind (card, article, deck recipe, offer, …), for grouping. */
export async function topPages(db: Db, period: Period, limit = 30): Promise<(TopRow & { kind: string })[]> {
  return (await top(db, period, "page", limit)).map((r) => ({ ...r, kind: pageKindOf(r.value) ?? "other" }));
}

/** `title`: the article's title or the deck's name (null once it is gone or renamed away from the path). */
export type ContentRow = { path: string; kind: string; title: string | null; readers: number; posted: number; traded: number };

/** Articles and deck recipes ranked by readers who later the same day posted an offer or completed a trade. */
export async function contentThatBringsTraders(db: Db, period: Period, limit = 20): Promise<ContentRow[]> {
  const rows = await rowsOf<{ value: string; readers: number; posted: number; traded: number }>(
    db,
    sql`select value, sum(visitors) as readers, sum(posted_visitors) as posted, sum(traded_visitors) as traded
        from analytics_daily where dim = 'content' and day between ${period.from} and ${period.to}
        group by value order by sum(posted_visitors) + sum(traded_visitors) desc, sum(visitors) desc, value limit ${limit}`,
  );
  const titles = await contentTitles(db, rows.map((r) => r.value));
  return rows.map((r) => ({
    path: r.value,
    kind: pageKindOf(r.value) ?? "other",
    title: titles.get(r.value) ?? null,
    readers: Number(r.readers),
    posted: Number(r.posted),
    traded: Number(r.traded),
  }));
}

/** The titles of article and deck recipe paths (/articles/{slug or id}, /deck-recipes/{slug or id}), in one query. */
async function contentTitles(db: Db, paths: readonly string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const rows = await rowsOf<{ path: string; title: string | null }>(
    db,
    sql`select p.path, coalesce(
          (select a.title from articles a where p.path in ('/articles/' || a.slug, '/articles/' || a.id::text) limit 1),
          (select d.name from decks d where lower(p.path) = '/deck-recipes/' || lower(d.slug) or p.path = '/deck-recipes/' || d.id::text limit 1)
        ) as title
        from jsonb_array_elements_text(${JSON.stringify(paths)}::jsonb) as p(path)`,
  );
  return new Map(rows.filter((r) => r.title !== null).map((r) => [r.path, r.title as string]));
}

export const FUNNEL_STEPS = ["posted", "matched", "room_opened", "agreed", "completed"] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export type Funnel = {
  steps: { step: FunnelStep; count: number; fromPrevious: number | null; fromStart: number | null; dropOff: number | null; medianS: number | null; p90S: number | null }[];
  channels: string[];
  /** First sources (referrer hosts; "" is none) of the period's offers, most offers first. */
  sources: string[];
};

/** Which offers the funnel counts: those whose poster first came that day from this channel and/or this source. */
export type FunnelFilter = { channel?: string | null; source?: string | null };

/**
 * The trade funnel of offers posted in the period (optionally only those whose poster first came
 * that day from a channel and/or a referrer host): how many reached each step, conversion,
 * drop-off, and the median and 90th percentile time from the step before.
 */
export async function tradeFunnel(db: Db, period: Period, by: FunnelFilter = {}): Promise<Funnel> {
  const filter = sql`${by.channel ? sql`and first_channel = ${by.channel}` : sql``} ${typeof by.source === "string" ? sql`and first_source = ${by.source}` : sql``}`;
  const [r] = await rowsOf<Record<string, string | number | null>>(
    db,
    sql`select count(*) as posted, count(matched_at) as matched, count(room_opened_at) as room_opened, count(agreed_at) as agreed, count(completed_at) as completed,
          percentile_cont(0.5) within group (order by extract(epoch from matched_at - posted_at)) as matched_p50,
          percentile_cont(0.9) within group (order by extract(epoch from matched_at - posted_at)) as matched_p90,
          percentile_cont(0.5) within group (order by extract(epoch from room_opened_at - matched_at)) as room_opened_p50,
          percentile_cont(0.9) within group (order by extract(epoch from room_opened_at - matched_at)) as room_opened_p90,
          percentile_cont(0.5) within group (order by extract(epoch from agreed_at - room_opened_at)) as agreed_p50,
          percentile_cont(0.9) within group (order by extract(epoch from agreed_at - room_opened_at)) as agreed_p90,
          percentile_cont(0.5) within group (order by extract(epoch from completed_at - agreed_at)) as completed_p50,
          percentile_cont(0.9) within group (order by extract(epoch from completed_at - agreed_at)) as completed_p90
        from analytics_offer_funnel where day between ${period.from} and ${period.to} ${filter}`,
  );
  const channels = await rowsOf<{ first_channel: string }>(
    db,
    sql`select distinct first_channel from analytics_offer_funnel where day between ${period.from} and ${period.to} order by first_channel`,
  );
  const sources = await rowsOf<{ first_source: string }>(
    db,
    sql`select first_source from analytics_offer_funnel where day between ${period.from} and ${period.to}
        group by first_source order by count(*) desc, first_source limit 50`,
  );
  const start = Number(r.posted);
  let previous: number | null = null;
  const steps = FUNNEL_STEPS.map((step) => {
    const count = Number(r[step]);
    const row = {
      step,
      count,
      fromPrevious: previous === null ? null : previous ? count / previous : 0,
      fromStart: start ? count / start : null,
      dropOff: previous === null ? null : previous - count,
      medianS: step === "posted" || r[`${step}_p50`] === null ? null : Number(r[`${step}_p50`]),
      p90S: step === "posted" || r[`${step}_p90`] === null ? null : Number(r[`${step}_p90`]),
    };
    previous = count;
    return row;
  });
  return { steps, channels: channels.map((c) => c.first_channel), sources: sources.map((c) => c.first_source) };
}

export type Realtime = { visitors: number; pages: { path: string; visitors: number }[] };

/** Visitors in the last five minutes and the pages they are on (their latest page view). */
export async function realtime(db: Db, now = new Date()): Promise<Realtime> {
  const since = new Date(now.getTime() - 5 * 60_000).toISOString();
  const rows = await rowsOf<{ path: string; visitors: number }>(
    db,
    sql`select path, count(*)::int as visitors from (
          select distinct on (visitor) visitor, path from analytics_events
          where kind = 'pageview' and ts >= ${since} and visitor is not null order by visitor, ts desc
        ) latest group by path order by count(*) desc, path limit 10`,
  );
  const [total] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct visitor)::int as n from analytics_events where kind = 'pageview' and ts >= ${since}`,
  );
  return { visitors: Number(total.n), pages: rows.map((r) => ({ path: r.path, visitors: Number(r.visitors) })) };
}

export async function productEvents(db: Db, period: Period): Promise<{ kind: string; count: number; users: number }[]> {
  const rows = await rowsOf<{ value: string; n: number; users: number }>(
    db,
    sql`select value, sum(pageviews) as n, sum(visitors) as users from analytics_daily where dim = 'event' and day between ${period.from} and ${period.to} group by value order by value`,
  );
  return rows.map((r) => ({ kind: r.value, count: Number(r.n), users: Number(r.users) }));
}

export async function lastComputedAt(db: Db): Promise<string | null> {
  const [r] = await rowsOf<{ at: Date | string | null }>(db, sql`select max(computed_at) as at from analytics_rollup_days`);
  return r?.at ? new Date(r.at).toISOString() : null;
}

export type HealthFigures = {
  running: boolean;
  buffered: number;
  written: number;
  dropped: number;
  failedBatches: number;
  lastFlushAt: string | null;
  lastRollupAt: string | null;
  collected: Record<string, number>;
  /** Requests and sockets of this instance (server/metrics.ts), when the server measures them. */
  operations: { socketsConnected: number; requests: number; slowRequests: number } | null;
  /** Outbox deliveries of this process since start, by outcome. */
  deliveries: { sent: number; retried: number; failed: number };
};

export type AnalyticsTabData = {
  range: Range;
  period: Period;
  previous: Period;
  periodError: boolean;
  channel: string | null;
  /** The funnel's first-source filter (a referrer host, "" for none), or null for every source. */
  source: string | null;
  current: Headline;
  before: Headline;
  series: SeriesPoint[];
  realtime: Realtime;
  pages: (TopRow & { kind: string })[];
  entries: TopRow[];
  exits: TopRow[];
  kinds: TopRow[];
  sources: TopRow[];
  channels: TopRow[];
  utmSources: TopRow[];
  utmMediums: TopRow[];
  utmCampaigns: TopRow[];
  browsers: TopRow[];
  systems: TopRow[];
  devices: TopRow[];
  languages: TopRow[];
  funnel: Funnel;
  content: ContentRow[];
  events: { kind: string; count: number; users: number }[];
  computedAt: string | null;
  health: HealthFigures;
  /** The outbox of every instance (the database): lag, waiting, retried and failed rows. */
  outbox: OutboxFigures;
};

/** Everything the アクセス解析 tab shows for `?range=&from=&to=&channel=&source=`; a bad custom period falls back to 7 days and says so. */
export async function analyticsTabData(db: Db, query: AnalyticsQuery, health: HealthFigures): Promise<AnalyticsTabData> {
  let chosen: ReturnType<typeof periodOf>;
  let periodError = false;
  try {
    chosen = periodOf(query);
  } catch (error) {
    if (!(error instanceof AnalyticsError)) throw error;
    periodError = true;
    chosen = periodOf(DEFAULT_QUERY);
  }
  const { period, previous } = chosen;
  const { channel, source } = query;
  const [current, before, points, now, pages, entries, exits, kinds, sources, channels, utmSources, utmMediums, utmCampaigns, browsers, systems, devices, languages, funnel, content, events, computedAt, outbox] =
    await Promise.all([
      headline(db, period),
      headline(db, previous),
      series(db, period),
      realtime(db),
      topPages(db, period),
      top(db, period, "entry"),
      top(db, period, "exit"),
      top(db, period, "kind"),
      top(db, period, "source"),
      top(db, period, "channel"),
      top(db, period, "utm_source"),
      top(db, period, "utm_medium"),
      top(db, period, "utm_campaign"),
      top(db, period, "browser"),
      top(db, period, "os"),
      top(db, period, "device"),
      top(db, period, "lang"),
      tradeFunnel(db, period, { channel, source }),
      contentThatBringsTraders(db, period),
      productEvents(db, period),
      lastComputedAt(db),
      outboxFigures(db),
    ]);
  return {
    range: chosen.range,
    period,
    previous,
    periodError,
    channel,
    source,
    current,
    before,
    series: points,
    realtime: now,
    pages,
    entries,
    exits,
    kinds,
    sources,
    channels,
    utmSources,
    utmMediums,
    utmCampaigns,
    browsers,
    systems,
    devices,
    languages,
    funnel,
    content,
    events,
    computedAt,
    health,
    outbox,
  };
}

/**
 * CSV of one period, as the tab shows it: a row per day (dim "day": the site's figures of that day),
 * then every dimension's values with their totals over the period (visitors summed per day, like
 * the tables). Read from the rollups in one grouped query: a 90-day export is a few thousand rows,
 * not one row per day and value (which grew to a quarter of a million and took seconds).
 */
export async function exportCsv(db: Db, period: Period): Promise<string> {
  const rows = await rowsOf<Record<string, string | number>>(
    db,
    sql`select * from (
        select 'day' as dim, to_char(day, 'YYYY-MM-DD') as value, visitors, visits, pageviews, entries, exits, bounces, duration_s, engaged_ms, posted_visitors, traded_visitors, 0 as part
        from analytics_daily where dim = 'site' and day between ${period.from} and ${period.to}
        union all
        select dim, value, sum(visitors), sum(visits), sum(pageviews), sum(entries), sum(exits), sum(bounces), sum(duration_s), sum(engaged_ms), sum(posted_visitors), sum(traded_visitors), 1
        from analytics_daily where day between ${period.from} and ${period.to}
        group by dim, value
      ) x order by part, dim, case when part = 0 then value end, visitors desc, value`,
  );
  const columns = ["dim", "value", "visitors", "visits", "pageviews", "entries", "exits", "bounces", "duration_s", "engaged_ms", "posted_visitors", "traded_visitors"];
  return [columns.join(","), ...rows.map((r) => csvLine(columns.map((c) => r[c])))].join("\r\n") + "\r\n";
}
