// `npm run bench:analytics`: the server's memory under a flood of maximum-size hits, then the
// collection endpoint under load and the dashboard over many events on PostgreSQL (needs a build,
// and for parts 1 and 2 a reachable PostgreSQL; see docs/decisions/020). BENCH_PART=memory runs
// part 0 alone, BENCH_PART=collection parts 1 and 2.
//
// 0. Memory (bench/analytics-memory.ts): peak and settled RSS of the server against its idle RSS
//    after start in the same run, on PGlite, and on PostgreSQL with analytics_events locked (the
//    buffer's worst case: nothing is written until it is full).
// 1. `/` alone for BENCH_SECONDS (the baseline), then `/` again while `POST /api/event` runs at a
//    fixed BENCH_EVENT_RATE per second for the same time: the endpoint's p99, the page's p99 against
//    its own baseline of this run, and rows lost (accepted hits − rows written − rows counted as dropped).
//    Two control cases show what any BENCH_EVENT_RATE requests cost the page on a small machine,
//    where the load generator shares the cores with the server: the same rate against a bare
//    node:http server in another process (the load generator and the kernel alone), and against
//    the app's own GET /healthz (one database ping, no analytics).
// 2. BENCH_EVENTS generated events over 90 days, rolled up per day; then each dashboard read
//    (the whole tab for 7, 30 and 90 days, and the CSV export) timed BENCH_QUERY_RUNS times.
// Bounded: BENCH_SECONDS (default 30), BENCH_EVENT_RATE (default 2000), BENCH_EVENTS (default 10,000,000).
import autocannon, { type Options as LoadOptions } from "autocannon";
import { sql } from "drizzle-orm";
import { startServer } from "#tests/support/server.ts";
import { AnalyticsQuerySchema, analyticsTabData, exportCsv, periodOf, realtime, topPages, tradeFunnel } from "#app/features/analytics/dashboard.server.ts";
import { parseQuery } from "#app/lib/query.ts";
import { computeDay } from "#app/features/analytics/rollup.server.ts";
import { addDays, tokyoDay } from "#app/features/analytics/salt.server.ts";
import { ensurePartitions } from "#app/features/analytics/partitions.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { analyticsMemory } from "./analytics-memory";
import { measure, postgresTarget, startBareServer } from "./support";

const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const rate = Number(process.env.BENCH_EVENT_RATE ?? 2000);
const events = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const queryRuns = Number(process.env.BENCH_QUERY_RUNS ?? 5);
const pageConnections = 10;

const part = process.env.BENCH_PART ?? "all";
if (part !== "collection") await analyticsMemory();
if (part === "memory") process.exit(0);

const target = await postgresTarget();
if (!target) {
  console.log("bench:analytics needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).");
  process.exit(1);
}
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const metricsPort = 20_000 + Math.floor(Math.random() * 20_000);
const server = await startServer({ ...target.env, LOG_LEVEL: "warn", ANALYTICS_RATE_LIMIT: "1000000", ANALYTICS_BUFFER_MAX: "100000", METRICS_PORT: String(metricsPort) });
const database = await target.open();
const db = database.db;
try {
  console.log(`[server mode: postgres ${server.mode}] analytics benchmark — ${seconds} s per case, ${rate} hits/s, / at ${pageConnections} connections`);
  // Long enough for the JIT to settle: a cold first case makes every later one look better.
  await measure("warm-up", `${server.url}/`, { duration: 10, connections: pageConnections });
  const alone = await measure("/ alone", `${server.url}/`, { duration: seconds, connections: pageConnections });

  const body = JSON.stringify({ t: "pv", u: "/bench-collect", w: 1280 });
  // Each connection is another visitor behind the (loopback) proxy: a client IP of its own.
  let client = 0;
  const hitHeaders = { origin: server.url, "content-type": "text/plain", "user-agent": UA, "accept-language": "ja" };
  const underLoad = async (name: string, load: LoadOptions) => {
    const [side, page] = await Promise.all([
      autocannon({ connections: 50, overallRate: rate, duration: seconds, ...load }),
      measure(name, `${server.url}/`, { duration: seconds, connections: pageConnections }),
    ]);
    return { side, page };
  };
  const bare = await startBareServer();
  const withBare = await underLoad(`/ + ${rate}/s to a bare server`, { url: `${bare.url}/` }).finally(() => bare.stop());
  const withHealthz = await underLoad(`/ + ${rate}/s GET /healthz`, { url: `${server.url}/healthz` });
  const { side: hits, page: withCollection } = await underLoad("/ with collection", {
    url: `${server.url}/api/event`,
    method: "POST",
    body,
    headers: hitHeaders,
    setupClient: (c) => c.setHeaders({ ...hitHeaders, "x-forwarded-for": `198.18.${Math.floor(client / 250)}.${(client++ % 250) + 1}` }),
  });
  const again = await measure("/ alone, again", `${server.url}/`, { duration: seconds, connections: pageConnections });
  const accepted = hits["2xx"];
  // Rows are written every few seconds: wait until the count stops moving.
  let written = -1;
  for (let stable = 0; stable < 3; ) {
    await new Promise((r) => setTimeout(r, 2000));
    const [row] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from analytics_events where path = '/bench-collect'`);
    stable = Number(row.n) === written ? stable + 1 : 0;
    written = Number(row.n);
  }
  console.log("\ncase                                 req/s      p50 ms   p99 ms   ×p99 vs / alone   non-2xx");
  const line = (name: string, rps: number, p50: number, p99: number, ratio: string, bad: number) =>
    console.log(name.padEnd(34), rps.toFixed(0).padStart(8), p50.toFixed(1).padStart(10), p99.toFixed(1).padStart(8), ratio.padStart(17), String(bad).padStart(9));
  line("/ alone", alone.rps, alone.p50, alone.p99, "1.00", alone.non2xx + alone.errors);
  const ratio = (m: { p99: number }) => (m.p99 / Math.max(alone.p99, 0.5)).toFixed(2);
  for (const [page, side, sideName] of [
    [withBare.page, withBare.side, "  bare server (other process)"],
    [withHealthz.page, withHealthz.side, "  GET /healthz"],
    [withCollection, hits, "  POST /api/event"],
  ] as const) {
    line(page.name, page.rps, page.p50, page.p99, ratio(page), page.non2xx + page.errors);
    line(sideName, side.requests.average, side.latency.p50, side.latency.p99, "—", side.non2xx + side.errors + side.timeouts);
  }
  line(again.name, again.rps, again.p50, again.p99, ratio(again), again.non2xx + again.errors);
  const metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const dropped = Number(/^analytics_dropped_rows_total (\d+)/m.exec(metricsText)?.[1] ?? NaN);
  // autocannon stops counting at the deadline, so a few answered hits may be missing from "answered".
  console.log(`collection: ${accepted} answered 204 within the run, ${written} rows written, ${dropped} counted as dropped, lost ${Math.max(0, accepted - written - dropped)}`);

  // 2. The dashboard over generated events.
  const days = 90;
  const today = tokyoDay();
  const t0 = Date.now();
  await ensurePartitions(db, new Date(Date.now() - 100 * 86_400_000));
  for (let m = 1; m <= 4; m++) await ensurePartitions(db, new Date(Date.now() - (100 - m * 30) * 86_400_000));
  const batch = 500_000;
  for (let done = 0; done < events; done += batch) {
    const n = Math.min(batch, events - done);
    // Visitors revisit, paths follow a long tail, a tenth come from search and social.
    await db.execute(sql`
      insert into analytics_events (ts, kind, visitor, path, page_kind, referrer_host, channel, browser, os, device, screen, lang)
      select now() - (random() * ${days} * interval '1 day'), 'pageview', (random() * 200000)::bigint,
        case when r < 0.3 then '/' when r < 0.5 then '/trades' when r < 0.7 then '/articles/a' || (random() * 300)::int
             when r < 0.85 then '/deck-recipes/d' || (random() * 100)::int else '/cards/A1-' || lpad(((random() * 280)::int)::text, 3, '0') end,
        case when r < 0.3 then 'home' when r < 0.5 then 'board' when r < 0.7 then 'article' when r < 0.85 then 'deck' else 'card' end,
        case when r2 < 0.1 then 'google.com' when r2 < 0.15 then 'x.com' else null end,
        case when r2 < 0.1 then 'search' when r2 < 0.15 then 'social' else 'direct' end,
        case when r2 < 0.6 then 'Chrome' else 'Safari' end, case when r2 < 0.5 then 'iOS' else 'Android' end,
        case when r2 < 0.8 then 'mobile' else 'desktop' end, 'mobile', 'ja'
      from (select random() as r, random() as r2 from generate_series(1, ${n})) g`);
  }
  // One offer per 500 events, each going as far down the funnel as its luck says, minutes to hours apart.
  await db.execute(sql`
    with o as (
      select gen_random_uuid() as id, now() - (random() * ${days} * interval '1 day') as ts, 'bench-user-' || (random() * 5000)::int as uid, random() as r, random() as r2
      from generate_series(1, ${Math.max(1, Math.floor(events / 500))})
    )
    insert into analytics_events (ts, kind, offer_id, user_id)
    select ts, 'offer_posted', id, uid from o
    union all select least(now(), ts + r2 * interval '2 hours'), 'matched', id, uid from o where r < 0.6
    union all select least(now(), ts + r2 * interval '3 hours'), 'room_opened', id, uid from o where r < 0.45
    union all select least(now(), ts + r2 * interval '5 hours'), 'terms_agreed', id, uid from o where r < 0.35
    union all select least(now(), ts + r2 * interval '8 hours'), 'trade_completed', id, uid from o where r < 0.3`);
  const generatedS = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  for (let d = addDays(today, -days); d <= today; d = addDays(d, 1)) await computeDay(db, d, { finalise: d < today });
  const rollupS = (Date.now() - t1) / 1000;
  console.log(`\ndashboard over ${events.toLocaleString("en")} generated events (${days} days): generated in ${generatedS.toFixed(0)} s, rolled up in ${rollupS.toFixed(0)} s (${(rollupS / (days + 1)).toFixed(2)} s per day)`);
  const health = { running: false, buffered: 0, written: 0, dropped: 0, failedBatches: 0, lastFlushAt: null, lastRollupAt: null, collected: {}, operations: null, deliveries: { sent: 0, retried: 0, failed: 0 } };
  const quarter = periodOf(parseQuery(new URLSearchParams({ range: "90d" }), AnalyticsQuerySchema)).period;
  const cases: [string, () => Promise<unknown>][] = [
    ["tab, 7 days", () => analyticsTabData(db, parseQuery(new URLSearchParams({ range: "7d" }), AnalyticsQuerySchema), health)],
    ["tab, 30 days", () => analyticsTabData(db, parseQuery(new URLSearchParams({ range: "30d" }), AnalyticsQuerySchema), health)],
    ["tab, 90 days", () => analyticsTabData(db, parseQuery(new URLSearchParams({ range: "90d" }), AnalyticsQuerySchema), health)],
    ["tab, 90 d, direct", () => analyticsTabData(db, parseQuery(new URLSearchParams({ range: "90d", channel: "direct" }), AnalyticsQuerySchema), health)],
    ["CSV, 90 days", () => exportCsv(db, quarter)],
    // Parts of the tab alone (the tab runs them at once): the slowest ones.
    ["  top pages, 90 d", () => topPages(db, quarter)],
    ["  funnel, 90 d", () => tradeFunnel(db, quarter)],
    ["  realtime (raw)", () => realtime(db)],
  ];
  console.log("query".padEnd(18), "p50 ms".padStart(8), "max ms".padStart(8), "  (aim: < 300 ms)");
  for (const [name, run] of cases) {
    const times: number[] = [];
    for (let i = 0; i < queryRuns; i++) {
      const s = performance.now();
      await run();
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    console.log(name.padEnd(18), times[Math.floor(times.length / 2)].toFixed(0).padStart(8), times.at(-1)!.toFixed(0).padStart(8));
  }
} finally {
  await database.close();
  await server.stop();
  await target.cleanup();
}
