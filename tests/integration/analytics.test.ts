import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "#app/db/schema/index.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { batchErrorMessage, createEventBuffer, type EventRow } from "#app/features/analytics/buffer.server.ts";
import { applyRetention, ensurePartitions } from "#app/features/analytics/partitions.server.ts";
import { exportCsv, tradeFunnel } from "#app/features/analytics/dashboard.server.ts";
import { computeDay, runRollups, VISIT_GAP_MINUTES } from "#app/features/analytics/rollup.server.ts";
import { addDays, dailySalt, tokyoDay, tokyoDayStart, visitorHash } from "#app/features/analytics/salt.server.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await ensurePartitions(db);
});
afterAll(async () => {
  await database?.close();
});

const count = async (table: string, where = sql`true`) =>
  Number((await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(table)} where ${where}`))[0].n);

describe("daily salt", () => {
  it("is one row per Tokyo day, shared by every instance, and gone after two days", async () => {
    const today = tokyoDay();
    const [a, b] = await Promise.all([dailySalt(db, today), dailySalt(db, today)]);
    expect(a).toBe(b);
    expect(await count("analytics_salts", sql`day = ${today}`)).toBe(1);
    // Same visitor, same hash on both instances; another day's salt gives another hash.
    expect(visitorHash(a, "203.0.113.9", "UA", "site")).toBe(visitorHash(b, "203.0.113.9", "UA", "site"));

    const tomorrow = addDays(today, 1);
    const next = await dailySalt(db, tomorrow);
    expect(next).not.toBe(a);
    expect(visitorHash(next, "203.0.113.9", "UA", "site")).not.toBe(visitorHash(a, "203.0.113.9", "UA", "site"));
    // The day after tomorrow: today's salt is two days old and is deleted, tomorrow's is kept.
    await db.execute(sql`insert into analytics_visitor_users (day, visitor, user_id) values (${today}, 1, 'u1')`);
    await dailySalt(db, addDays(today, 2));
    expect(await count("analytics_salts", sql`day = ${today}`)).toBe(0);
    expect(await count("analytics_salts", sql`day = ${tomorrow}`)).toBe(1);
    expect(await count("analytics_visitor_users", sql`day = ${today}`)).toBe(0);
  });

  // Two instances share one PostgreSQL (PGlite belongs to one process, so there is one instance there).
  it.runIf(process.env.TEST_DB === "postgres")("two instances racing for the first salt of a day get the same salt", async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database.name}`;
    const second = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
    try {
      const day = addDays(tokyoDay(), 5);
      const [a, b] = await Promise.all([dailySalt(db, day), dailySalt(second.db, day)]);
      expect(a).toBe(b);
      expect(visitorHash(a, "198.51.100.1", "UA", "site")).toBe(visitorHash(b, "198.51.100.1", "UA", "site"));
    } finally {
      await second.close();
    }
  });
});

describe("event buffer", () => {
  it("writes in batches, flushes what is left at shutdown, and counts rows past its bound as dropped", async () => {
    const buffer = createEventBuffer(db, { maxRows: 50, flushMs: 60_000, batchSize: 7 });
    const before = await count("analytics_events", sql`kind = 'pageview' and path = '/buffer-test'`);
    let accepted = 0;
    for (let i = 0; i < 80; i++) if (buffer.push({ kind: "pageview", visitor: BigInt(i), path: "/buffer-test", ts: new Date() })) accepted++;
    expect(accepted).toBe(50);
    expect(buffer.stats()).toMatchObject({ buffered: 50, dropped: 30, written: 0 });
    await buffer.close();
    expect(buffer.stats()).toMatchObject({ buffered: 0, dropped: 30, written: 50 });
    expect((await count("analytics_events", sql`kind = 'pageview' and path = '/buffer-test'`)) - before).toBe(50);
  });

  it("writes every column as it was pushed, awkward text and missing values included", async () => {
    const buffer = createEventBuffer(db, { maxRows: 10, flushMs: 60_000 });
    const ts = new Date("2026-03-01T01:02:03.456Z");
    const awkward = '/articles/a"b{c},d\\e NULL';
    buffer.push({ kind: "pageview", ts, visitor: -9_223_372_036_854_775_807n, path: awkward, pageKind: "article", referrerHost: "NULL", channel: "social", utmSource: "x", utmMedium: "social", utmCampaign: "春", browser: "Chrome", os: "iOS", device: "mobile", screen: "mobile", lang: "ja" });
    buffer.push({ kind: "engagement", ts, visitor: 7n, path: "/buffer-columns", pageKind: "home", engagedMs: 12_345 });
    await buffer.close();
    const rows = await rowsOf<Record<string, unknown>>(
      db,
      sql`select ts, kind, visitor::text as visitor, path, page_kind, referrer_host, channel, utm_source, utm_medium, utm_campaign, browser, os, device, screen, lang, engaged_ms, offer_id, user_id
          from analytics_events where ts = ${ts.toISOString()} order by kind desc`,
    );
    expect(rows.map((r) => ({ ...r, ts: new Date(r.ts as string).toISOString() }))).toEqual([
      { ts: ts.toISOString(), kind: "pageview", visitor: "-9223372036854775807", path: awkward, page_kind: "article", referrer_host: "NULL", channel: "social", utm_source: "x", utm_medium: "social", utm_campaign: "春", browser: "Chrome", os: "iOS", device: "mobile", screen: "mobile", lang: "ja", engaged_ms: null, offer_id: null, user_id: null },
      { ts: ts.toISOString(), kind: "engagement", visitor: "7", path: "/buffer-columns", page_kind: "home", referrer_host: null, channel: null, utm_source: null, utm_medium: null, utm_campaign: null, browser: null, os: null, device: null, screen: null, lang: null, engaged_ms: 12_345, offer_id: null, user_id: null },
    ]);
  });

  it("counts a row the database refused as dropped and keeps going", async () => {
    const errors: number[] = [];
    const buffer = createEventBuffer(db, { maxRows: 10, flushMs: 60_000, onError: (_e, n) => errors.push(n) });
    // Past the integer column's range: no cleaning makes this row writable.
    buffer.push({ kind: "pageview", path: "/refused", engagedMs: 2 ** 40, ts: new Date() });
    await buffer.flush();
    buffer.push({ kind: "pageview", path: "/after-failure", ts: new Date() });
    await buffer.close();
    expect(errors).toEqual([1]);
    expect(buffer.stats()).toMatchObject({ dropped: 1, written: 1, failedBatches: 1 });
  });

  it("writes half an emoji and NUL characters cleaned, so one hit never costs its batch", async () => {
    const path = "/buffer-awkward-text";
    const buffer = createEventBuffer(db, { maxRows: 100, flushMs: 60_000 });
    const good = (i: number): EventRow => ({ kind: "pageview", visitor: BigInt(i), path, utmSource: `good-${i}`, ts: new Date() });
    for (let i = 0; i < 10; i++) buffer.push(good(i));
    // A UTM value cut by UTF-16 units after 99 letters (a lone high surrogate), and a %00 in a value.
    buffer.push({ kind: "pageview", visitor: 100n, path, utmSource: `${"a".repeat(99)}${"🎉".slice(0, 1)}`, ts: new Date() });
    buffer.push({ kind: "pageview", visitor: 101n, path, utmCampaign: decodeURIComponent("spring%00sale"), ts: new Date() });
    for (let i = 10; i < 20; i++) buffer.push(good(i));
    await buffer.close();
    expect(buffer.stats()).toMatchObject({ written: 22, dropped: 0, failedBatches: 0 });
    const rows = await rowsOf<{ visitor: string; utm_source: string | null; utm_campaign: string | null }>(
      db,
      sql`select visitor::text as visitor, utm_source, utm_campaign from analytics_events where path = ${path} and visitor >= 100 order by visitor`,
    );
    expect(rows).toEqual([
      { visitor: "100", utm_source: `${"a".repeat(99)}\ufffd`, utm_campaign: null },
      { visitor: "101", utm_source: null, utm_campaign: "springsale" },
    ]);
    expect(await count("analytics_events", sql`path = ${path}`)).toBe(22);
  });

  it("retries a refused batch in halves, so only the row the database cannot take is lost", async () => {
    const path = "/buffer-halves";
    const errors: { rows: number; message: string }[] = [];
    const buffer = createEventBuffer(db, { maxRows: 100, flushMs: 60_000, batchSize: 50, onError: (e, rows) => errors.push({ rows, message: batchErrorMessage(e) }) });
    for (let i = 0; i < 41; i++) buffer.push({ kind: "pageview", visitor: BigInt(i), path, engagedMs: i === 17 ? 2 ** 40 : null, ts: new Date() });
    await buffer.close();
    expect(buffer.stats()).toMatchObject({ written: 40, dropped: 1, failedBatches: 1 });
    expect(await count("analytics_events", sql`path = ${path}`)).toBe(40);
    expect(await count("analytics_events", sql`path = ${path} and visitor = 17`)).toBe(0);
    // The log gets the database's short reason, not the query with its whole JSON parameter.
    expect(errors).toHaveLength(1);
    expect(errors[0].rows).toBe(1);
    expect(errors[0].message).toMatch(/out of range/);
    expect(errors[0].message).not.toContain(path);
  });
});

// A fixed past day, away from the other tests' rows.
const DAY = "2026-03-10";
const PATHS = [
  ["/", "home"],
  ["/articles/guide", "article"],
  ["/articles/tier", "article"],
  ["/deck-recipes/mew", "deck"],
  ["/trades", "board"],
  ["/cards/A1-001", "card"],
] as const;
const SOURCES = [null, "google.com", "x.com", "example.jp"];

function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe("daily rollups", () => {
  it("match a brute-force count over generated events", async () => {
    const next = random(42);
    const start = tokyoDayStart(DAY).getTime();
    const rows: EventRow[] = [];
    const links: { visitor: bigint; userId: string }[] = [];
    const posts: { userId: string; ts: number }[] = [];
    let tick = 0;
    for (let v = 1; v <= 60; v++) {
      const visitor = BigInt(v * 7919);
      // Distinct timestamps (ties would make "first page" ambiguous for any counter).
      let t = start + Math.floor(next() * 20 * 3_600_000) + ++tick;
      const n = 1 + Math.floor(next() * 6);
      for (let i = 0; i < n; i++) {
        const [path, pageKind] = PATHS[Math.floor(next() * PATHS.length)];
        const source = SOURCES[Math.floor(next() * SOURCES.length)];
        rows.push({ kind: "pageview", ts: new Date(t), visitor, path, pageKind, referrerHost: source, channel: source ? "referral" : "direct", browser: v % 2 ? "Chrome" : "Safari", os: "iOS", device: v % 3 ? "mobile" : "desktop" });
        if (next() < 0.3) rows.push({ kind: "engagement", ts: new Date(t + 1000), visitor, path, pageKind, engagedMs: 1000 + Math.floor(next() * 5000) });
        // Gaps over 30 minutes sometimes, so visitors have several visits.
        t += next() < 0.25 ? (VISIT_GAP_MINUTES + 5) * 60_000 : Math.floor(next() * 10 * 60_000) + 1;
        if (t >= start + 86_400_000) break;
      }
      if (v % 5 === 0) {
        links.push({ visitor, userId: `user-${v}` });
        const postAt = start + 86_400_000 - 60_000 - v;
        posts.push({ userId: `user-${v}`, ts: postAt });
        rows.push({ kind: "offer_posted", ts: new Date(postAt), offerId: `00000000-0000-4000-8000-${String(v).padStart(12, "0")}`, userId: `user-${v}` });
      }
    }
    // Rows of the next day and a bot-free engagement from the day before must not count.
    rows.push({ kind: "pageview", ts: new Date(start + 86_400_000 + 5), visitor: 1n, path: "/", pageKind: "home" });
    rows.push({ kind: "pageview", ts: new Date(start - 5), visitor: 1n, path: "/", pageKind: "home" });
    for (let i = 0; i < rows.length; i += 200) await db.insert(analyticsEvents).values(rows.slice(i, i + 200));
    for (const link of links) await db.execute(sql`insert into analytics_visitor_users (day, visitor, user_id) values (${DAY}, ${link.visitor}, ${link.userId})`);

    expect(await computeDay(db, DAY, { finalise: true })).toBe(true);

    // Brute force.
    const inDay = rows.filter((r) => (r.ts as Date).getTime() >= start && (r.ts as Date).getTime() < start + 86_400_000);
    const views = inDay.filter((r) => r.kind === "pageview").sort((a, b) => (a.ts as Date).getTime() - (b.ts as Date).getTime());
    const byVisitor = new Map<bigint, EventRow[]>();
    for (const r of views) byVisitor.set(r.visitor as bigint, [...(byVisitor.get(r.visitor as bigint) ?? []), r]);
    const visits: EventRow[][] = [];
    for (const list of byVisitor.values()) {
      let current: EventRow[] = [];
      for (const r of list) {
        const last = current.at(-1);
        if (last && (r.ts as Date).getTime() - (last.ts as Date).getTime() > VISIT_GAP_MINUTES * 60_000) {
          visits.push(current);
          current = [];
        }
        current.push(r);
      }
      visits.push(current);
    }
    const ms = (r: EventRow) => (r.ts as Date).getTime();
    const expectedSite = {
      visitors: byVisitor.size,
      visits: visits.length,
      pageviews: views.length,
      bounces: visits.filter((v) => v.length === 1).length,
      duration_s: visits.reduce((s, v) => s + Math.trunc((ms(v.at(-1)!) - ms(v[0])) / 1000), 0),
      engaged_ms: inDay.filter((r) => r.kind === "engagement").reduce((s, r) => s + (r.engagedMs ?? 0), 0),
    };
    const daily = await rowsOf<Record<string, string | number>>(db, sql`select * from analytics_daily where day = ${DAY}`);
    const row = (dim: string, value: string) => daily.find((d) => d.dim === dim && d.value === value);
    const site = row("site", "")!;
    expect({
      visitors: Number(site.visitors),
      visits: Number(site.visits),
      pageviews: Number(site.pageviews),
      bounces: Number(site.bounces),
      duration_s: Number(site.duration_s),
      engaged_ms: Number(site.engaged_ms),
    }).toEqual(expectedSite);

    for (const [path] of PATHS) {
      const pathViews = views.filter((r) => r.path === path);
      const got = row("page", path);
      expect({ visitors: Number(got?.visitors ?? 0), pageviews: Number(got?.pageviews ?? 0), engaged: Number(got?.engaged_ms ?? 0) }, path).toEqual({
        visitors: new Set(pathViews.map((r) => r.visitor)).size,
        pageviews: pathViews.length,
        engaged: inDay.filter((r) => r.kind === "engagement" && r.path === path).reduce((s, r) => s + (r.engagedMs ?? 0), 0),
      });
      expect(Number(row("entry", path)?.entries ?? 0), `entries ${path}`).toBe(visits.filter((v) => v[0].path === path).length);
      expect(Number(row("exit", path)?.exits ?? 0), `exits ${path}`).toBe(visits.filter((v) => v.at(-1)!.path === path).length);
    }
    for (const source of SOURCES) {
      const got = row("source", source ?? "");
      const mine = visits.filter((v) => (v[0].referrerHost ?? null) === source);
      expect({ visits: Number(got?.visits ?? 0), visitors: Number(got?.visitors ?? 0) }, `source ${source}`).toEqual({
        visits: mine.length,
        visitors: new Set(mine.map((v) => v[0].visitor)).size,
      });
    }
    for (const device of ["mobile", "desktop"]) {
      expect(Number(row("device", device)?.visitors ?? 0)).toBe(new Set(views.filter((r) => r.device === device).map((r) => r.visitor)).size);
    }
    const hours = new Map<string, number>();
    for (const r of views) {
      const h = String(new Date(ms(r) + 9 * 3_600_000).getUTCHours()).padStart(2, "0");
      hours.set(h, (hours.get(h) ?? 0) + 1);
    }
    for (const [h, n] of hours) expect(Number(row("hour", h)?.pageviews), `hour ${h}`).toBe(n);

    // Content that brings traders: readers of each article/deck, and those who later posted.
    for (const [path, kind] of PATHS) {
      if (kind !== "article" && kind !== "deck") continue;
      const firstRead = new Map<bigint, number>();
      for (const r of views) if (r.path === path && !firstRead.has(r.visitor as bigint)) firstRead.set(r.visitor as bigint, ms(r));
      const posted = [...firstRead].filter(([visitor, at]) => {
        const link = links.find((l) => l.visitor === visitor);
        return link && posts.some((p) => p.userId === link.userId && p.ts > at);
      }).length;
      const got = row("content", path);
      expect({ readers: Number(got?.visitors ?? 0), posted: Number(got?.posted_visitors ?? 0) }, path).toEqual({ readers: firstRead.size, posted });
    }
    expect(Number(row("event", "offer_posted")?.pageviews)).toBe(posts.length);
    expect(await count("analytics_offer_funnel", sql`day = ${DAY}`)).toBe(posts.length);

    // A final day is never recomputed: a late row changes nothing.
    await db.insert(analyticsEvents).values({ kind: "pageview", ts: new Date(start + 1000), visitor: 99n, path: "/", pageKind: "home" });
    await computeDay(db, DAY, { finalise: true });
    expect(Number((await rowsOf<{ v: number }>(db, sql`select visitors as v from analytics_daily where day = ${DAY} and dim = 'site'`))[0].v)).toBe(expectedSite.visitors);
  });

  it("exports a period as CSV: the days, then every dimension's totals, read from the rollups", async () => {
    const next = addDays(DAY, 1);
    await db.insert(analyticsEvents).values([
      { kind: "pageview", ts: new Date(tokyoDayStart(next).getTime() + 3_600_000), visitor: 11n, path: "/articles/csv", pageKind: "article", channel: "direct" },
      { kind: "pageview", ts: new Date(tokyoDayStart(next).getTime() + 3_660_000), visitor: 11n, path: "/", pageKind: "home", channel: "direct" },
    ]);
    await computeDay(db, next, { finalise: true });
    const daily = await rowsOf<{ day: string; dim: string; value: string; visitors: number; pageviews: number }>(
      db,
      sql`select to_char(day, 'YYYY-MM-DD') as day, dim, value, visitors, pageviews from analytics_daily where day between ${DAY} and ${next}`,
    );
    const lines = (await exportCsv(db, { from: DAY, to: next })).trimEnd().split("\r\n");
    expect(lines[0]).toBe("dim,value,visitors,visits,pageviews,entries,exits,bounces,duration_s,engaged_ms,posted_visitors,traded_visitors");
    const site = (day: string) => daily.find((d) => d.day === day && d.dim === "site")!;
    expect(lines[1]).toMatch(new RegExp(`^day,${DAY},${site(DAY).visitors},`));
    expect(lines[2]).toMatch(new RegExp(`^day,${next},${site(next).visitors},`));
    // A dimension's value once, with its visitors and page views summed over the days.
    const sum = (dim: string, value: string, field: "visitors" | "pageviews") =>
      daily.filter((d) => d.dim === dim && d.value === value).reduce((n, d) => n + Number(d[field]), 0);
    const home = lines.filter((l) => l.startsWith("page,/,"));
    expect(home).toHaveLength(1);
    expect(home[0].split(",").slice(2, 5)).toEqual([String(sum("page", "/", "visitors")), expect.any(String), String(sum("page", "/", "pageviews"))]);
    expect(lines).toContain(`page,/articles/csv,1,1,1,0,0,0,0,0,0,0`);
    expect(lines.length).toBe(1 + 2 + new Set(daily.map((d) => `${d.dim}\u0000${d.value}`)).size);
  });

  it("runRollups computes today and finalises yesterday", async () => {
    const now = new Date();
    const today = tokyoDay(now);
    await db.insert(analyticsEvents).values({ kind: "pageview", ts: now, visitor: 5n, path: "/", pageKind: "home" });
    const result = await runRollups(db, now);
    expect(result.today).toBe(today);
    expect(result.finalised).toContain(addDays(today, -1));
    const [day] = await rowsOf<{ finalised: boolean }>(db, sql`select finalised_at is not null as finalised from analytics_rollup_days where day = ${today}`);
    expect(day.finalised).toBe(false);
    expect(await count("analytics_daily", sql`day = ${today} and dim = 'site' and visitors >= 1`)).toBe(1);
  });
});

describe("trade funnel", () => {
  const FUNNEL_DAY = "2026-04-01";
  const offer = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, "0")}`;

  it("counts each step with conversion, drop-off and the median and p90 time from the step before, filtered by first channel or source", async () => {
    const posted = tokyoDayStart(FUNNEL_DAY).getTime() + 3_600_000;
    const at = (minutes: number) => new Date(posted + minutes * 60_000).toISOString();
    // Ten offers, matched after 10, 20, … 100 minutes; the first six came from search (google.com),
    // the rest from social (x.com). Offers 1–4 open a room 5 minutes after the match, 1–2 agree
    // 30 minutes after that, and offer 1 completes an hour later.
    for (let n = 1; n <= 10; n++) {
      const search = n <= 6;
      await db.execute(sql`
        insert into analytics_offer_funnel (offer_id, day, posted_at, first_channel, first_source, matched_at, room_opened_at, agreed_at, completed_at)
        values (${offer(n)}, ${FUNNEL_DAY}, ${at(0)}, ${search ? "search" : "social"}, ${search ? "google.com" : "x.com"}, ${at(n * 10)},
          ${n <= 4 ? at(n * 10 + 5) : null}, ${n <= 2 ? at(n * 10 + 35) : null}, ${n === 1 ? at(n * 10 + 95) : null})`);
    }
    const period = { from: FUNNEL_DAY, to: FUNNEL_DAY };
    const all = await tradeFunnel(db, period);
    expect(all.steps.map((s) => [s.step, s.count, s.dropOff])).toEqual([
      ["posted", 10, null],
      ["matched", 10, 0],
      ["room_opened", 4, 6],
      ["agreed", 2, 2],
      ["completed", 1, 1],
    ]);
    const step = (f: typeof all, name: string) => f.steps.find((s) => s.step === name)!;
    expect(step(all, "room_opened").fromPrevious).toBeCloseTo(0.4);
    expect(step(all, "completed").fromStart).toBeCloseTo(0.1);
    // Continuous percentiles (PostgreSQL's percentile_cont) of 10, 20, … 100 minutes.
    expect(step(all, "matched").medianS).toBeCloseTo(55 * 60);
    expect(step(all, "matched").p90S).toBeCloseTo(91 * 60);
    expect([step(all, "room_opened").medianS, step(all, "room_opened").p90S]).toEqual([300, 300]);
    expect([step(all, "agreed").medianS, step(all, "completed").medianS]).toEqual([1800, 3600]);
    expect(step(all, "posted").medianS).toBeNull();
    expect(all.channels).toEqual(["search", "social"]);
    expect(all.sources).toEqual(["google.com", "x.com"]);

    const social = await tradeFunnel(db, period, { channel: "social" });
    expect(social.steps.map((s) => s.count)).toEqual([4, 4, 0, 0, 0]);
    expect(step(social, "matched").medianS).toBeCloseTo(85 * 60);
    const google = await tradeFunnel(db, period, { source: "google.com" });
    expect(google.steps.map((s) => s.count)).toEqual([6, 6, 4, 2, 1]);
    expect((await tradeFunnel(db, period, { channel: "social", source: "google.com" })).steps[0].count).toBe(0);
    expect((await tradeFunnel(db, period, { source: "" })).steps[0].count).toBe(0);
  });
});

describe("retention", () => {
  it("drops whole months past the period and deletes older rows of the month that straddles it", async () => {
    const now = new Date("2026-11-20T00:00:00Z");
    await ensurePartitions(db, new Date("2026-07-15T00:00:00Z"));
    await db.insert(analyticsEvents).values([
      { kind: "pageview", ts: new Date("2026-07-20T00:00:00Z"), path: "/old" },
      { kind: "pageview", ts: new Date("2026-08-20T00:00:00Z"), path: "/straddle-old" },
      { kind: "pageview", ts: new Date("2026-08-25T00:00:00Z"), path: "/straddle-new" },
    ]);
    const { droppedPartitions } = await applyRetention(db, 90, now);
    expect(droppedPartitions).toContain("analytics_events_2026_07");
    expect(await count("analytics_events", sql`path in ('/old', '/straddle-old')`)).toBe(0);
    expect(await count("analytics_events", sql`path = '/straddle-new'`)).toBe(1);
  });
});
