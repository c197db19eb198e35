// `npm run bench:trades`: the trade board at scale. Seeds 100,000 offers (scripts/seed-trades.ts)
// into a fresh database, then measures at 20 connections the board's first page, a card filter
// (the most offered card) and マッチ for a signed-in trader whose offers use the most popular
// cards — as SSR pages and as JSON — with /healthz of the same server as the baseline. PostgreSQL
// (a fresh database on 127.0.0.1, dropped after) and PGlite side by side.
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case, 127.0.0.1 only;
// BENCH_ONLY=postgres skips PGlite, BENCH_DOCUMENTS_ONLY=1 measures only the SSR pages, BENCH_BUILDS
// (default "build") names build directories to measure one after another on the same data (a
// build of the code before a change beside the current one: `BENCH_BUILDS=build-before,build`).
// Aim (issue 5): p99 under 50 ms on PostgreSQL for the board, the card filter and マッチ. A signed-in
// page is rendered for each request, so the マッチ page is also set against the lightest signed-in
// page (/terms) of the same run (docs/decisions/008), once in the long run and again in paired rounds
// (BENCH_PAIRS, BENCH_PAIR_SECONDS: each page right after its /terms), whose median ratio a drifting
// machine moves less.
// Signed in, /trades is measured twice: as most requests find it (the board's first page kept until
// the next board write, docs/decisions/026) and with the board read from the database for every
// request (a page named by a cursor of its own each time, which no cache holds). That case is a close
// stand-in, not the first page itself: see unkeptBoardPage.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { packs, tradeRuleChanges } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { listMatches } from "#app/features/trades/matches.server.ts";
import { encodeCursor } from "#app/features/trades/board.server.ts";
import { seedTradeOffers } from "#scripts/seed-trades.ts";
import { startServer } from "#tests/support/server.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { seedBenchTrader } from "./fixtures";
import { CACHE_MISS, measure, postgresTarget, printTable, signInAs, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const offers = Number(process.env.BENCH_OFFERS ?? 100_000);
const opts = { duration, connections };
/** Trade-rule changes in play (docs/decisions/018): every request that evaluates the rules walks them. */
const ruleChanges = Number(process.env.BENCH_RULE_CHANGES ?? 200);
const TRADER = { name: "ベンチ", email: "bench-trader@example.com", password: "bench-trader-pass" };

const pgliteDir = mkdtempSync(path.join(tmpdir(), "torepoke-bench-trades-"));
const targets: BenchTarget[] = [];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);
// BENCH_ONLY=postgres skips PGlite (a shorter run on a busy machine).
if (process.env.BENCH_ONLY !== "postgres") targets.push({
  label: "pglite",
  env: { DATA_DIR: pgliteDir },
  open: () => openDatabase({ kind: "pglite", dataDir: path.join(pgliteDir, "db") }),
  cleanup: async () => rmSync(pgliteDir, { recursive: true, force: true }),
});

/** Seeds the board and a trader whose open offers use the most popular cards of three rarities. */
async function prepare(target: BenchTarget): Promise<{ giveFilter: string; matches: number }> {
  const database = await target.open();
  try {
    await migrateDatabase(database);
    let t = Date.now();
    await seedCatalogue(database.db);
    const seeded = await seedTradeOffers(database.db, { offers });
    // Rule changes that keep today's outcome (each pack reopened in the past, closed again far in
    // the future; ☆☆☆ confirmed closed), so the board and マッチ stay comparable with earlier runs.
    const packIds = (await database.db.select({ id: packs.id }).from(packs)).map((p) => p.id);
    const rows = [];
    for (let i = 0; rows.length < ruleChanges && i < 10_000; i++) {
      const packId = packIds[i % packIds.length];
      rows.push(
        i % 3 === 2
          ? { scope: "rarity", target: "☆☆☆", tradeable: false, effectiveAt: new Date(Date.UTC(2025, 0, 1 + i)), note: "bench" }
          : { scope: "pack", target: packId, tradeable: i % 3 === 0, effectiveAt: i % 3 === 0 ? new Date(Date.UTC(2025, 0, 1 + i)) : new Date(Date.UTC(2099, 0, 1 + i)), note: "bench" },
      );
    }
    if (rows.length) await database.db.insert(tradeRuleChanges).values(rows);
    console.log(`[${target.label}] ${rows.length} trade-rule changes in play`);
    console.log(`[${target.label}] seeded ${seeded.offers} offers (${seeded.offerCards} offer cards, ${seeded.users} users) in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const traderId = await seedBenchTrader(database.db, pgliteDir, TRADER, seeded);
    // マッチ is kept per user until the board changes; each of these runs after a change, cold.
    const cold: number[] = [];
    let matches: Awaited<ReturnType<typeof listMatches>> = [];
    for (let i = 0; i < 11; i++) {
      publishChange("board");
      t = performance.now();
      matches = await listMatches(database.db, traderId);
      cold.push(performance.now() - t);
    }
    cold.sort((a, b) => a - b);
    console.log(`[${target.label}] マッチ for the bench trader: ${matches.length} offers; computed after a board change: median ${cold[5].toFixed(1)} ms, max ${cold[10].toFixed(1)} ms`);
    return { giveFilter: seeded.popular["◆◆◆◆"]?.give[0] ?? "", matches: matches.length };
  } finally {
    await database.close();
  }
}


/**
 * A board page no cache has kept: a cursor of its own for each request (a random instant of the last
 * two days and a random id), so the board is read from the database and rendered every time — what
 * a signed-in /trades costs right after any board write, when the kept first page is gone. It differs
 * from that first page in small ways: a cursor page's SQL carries the row comparison it pages on and
 * the page shows a 最初のページ link; every request adds an entry to the kept later pages (at most
 * 300); and building the cursor costs the load generator a little CPU on the same cores, which biases
 * the figures slightly downward. The "kept" case is not free of reads either: the kept first page
 * lapses every 5 s, not only on a board write (docs/decisions/026).
 */
function unkeptBoardPage(): string {
  const instant = new Date(Date.now() - 3_600_000 - Math.random() * 47 * 3_600_000).toISOString().slice(0, 23);
  const micros = String(Math.floor(Math.random() * 1000)).padStart(3, "0");
  return `/trades?cursor=${encodeCursor(`${instant}${micros}`, randomUUID())}`;
}

const builds = (process.env.BENCH_BUILDS ?? "build").split(",").filter(Boolean);
/** Per page against its /terms: the median of the paired rounds' ratios (req/s, p99). */
type Paired = Record<string, { rps: number[]; p99: number[] }>;
const summary: { label: string; build: string; rows: Measurement[]; paired: Paired }[] = [];
// The machine's speed drifts within a run (shared cores): a page and its floor measured minutes apart
// can differ by a third for nothing. BENCH_PAIRS rounds (default 3) of BENCH_PAIR_SECONDS (default 5)
// measure each page right after its /terms, and the ratios' median is reported beside the long run's.
const pairs = Number(process.env.BENCH_PAIRS ?? 3);
const pairSeconds = Number(process.env.BENCH_PAIR_SECONDS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function pairedRounds(url: string, cookie: string): Promise<Paired> {
  const paired: Paired = {};
  const cases: [string, string, Record<string, string>, (() => string)?][] = [
    ["/trades signed in", "/trades", { cookie }],
    ["/trades signed in, board read", "/trades", { cookie }, unkeptBoardPage],
    ["マッチ signed in", "/trades?view=matches", { cookie }],
    ["/trades signed out, cache miss", "/trades", CACHE_MISS],
  ];
  for (let round = 0; round < pairs; round++) {
    for (const [name, pathname, headers, nextPath] of cases) {
      const floor = await measure("floor", `${url}/terms`, { duration: pairSeconds, connections, headers });
      const page = await measure(name, `${url}${pathname}`, { duration: pairSeconds, connections, headers, nextPath });
      const failed = floor.errors + floor.non2xx + page.errors + page.non2xx;
      if (failed) throw new Error(`paired round ${round + 1}, ${name}: ${failed} errors or answers other than 2xx`);
      const entry = (paired[name] ??= { rps: [], p99: [] });
      entry.rps.push(page.rps / floor.rps);
      entry.p99.push(page.p99 / Math.max(floor.p99, 0.5));
    }
  }
  return paired;
}
let mode = "unknown";
for (const target of targets) {
  try {
    const { giveFilter } = await prepare(target);
    for (const build of builds) await measureBuild(target, build, giveFilter);
  } finally {
    await target.cleanup();
  }
}

async function measureBuild(target: BenchTarget, build: string, giveFilter: string): Promise<void> {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn", BUILD_DIR: build });
  mode = server.mode;
  try {
    const cookie = await signInAs(server.url, TRADER);
    const auth = { cookie };
    const cases: [string, string, Record<string, string> | undefined, (() => string)?][] = [
      ["SSR /trades (first page)", "/trades", undefined],
      ["SSR /trades?give=<top card>", `/trades?give=${encodeURIComponent(giveFilter)}`, undefined],
      ["SSR /trades?view=matches", "/trades?view=matches", auth],
      // The lightest page a signed-in user can get (static text): what any signed-in render costs.
      ["SSR /terms (signed in)", "/terms", auth],
      // The same floor signed out, past the page cache: what the signed-out board is set against.
      ["SSR /terms, cache miss", "/terms", CACHE_MISS],
      // Signed in, the board is rendered for each request (no page cache): aim within 2× of /terms.
      ["SSR /trades (signed in)", "/trades", auth],
      // The same with the board read from the database for each request (no kept page answers).
      ["SSR /trades, board read (signed in)", "/trades", auth, unkeptBoardPage],
      ["GET /api/trades", "/api/trades", undefined],
      ["GET /api/trades?give=<top card>", `/api/trades?give=${encodeURIComponent(giveFilter)}`, undefined],
      ["GET /api/trades/matches", "/api/trades/matches", auth],
      // What the マッチ tab loads when it is opened from another page of the app.
      ["GET /trades.data?view=matches", "/trades.data?view=matches", auth],
      // Signed-out pages and APIs come from the page cache; these are computed every time.
      ["SSR /trades, cache miss", "/trades", CACHE_MISS],
      ["SSR ?give=<top card>, cache miss", `/trades?give=${encodeURIComponent(giveFilter)}`, CACHE_MISS],
      ["GET /api/trades, cache miss", "/api/trades", CACHE_MISS],
      ["GET /api/trades?give=, cache miss", `/api/trades?give=${encodeURIComponent(giveFilter)}`, CACHE_MISS],
    ];
    await measure("warm-up", `${server.url}/trades`, { duration: 2, connections: 4 });
    const rows: Measurement[] = [await measure(`/healthz (${target.label})`, `${server.url}/healthz`, opts)];
    for (const [name, pathname, headers, nextPath] of cases) {
      if (process.env.BENCH_DOCUMENTS_ONLY === "1" && !name.startsWith("SSR")) continue;
      rows.push(await measure(`${name} (${target.label})`, `${server.url}${pathname}`, { ...opts, headers, nextPath }));
    }
    printTable(`[server mode: ${server.mode}] [${build}] Trade board, ${offers} offers — ${target.label}, ${connections} connections, ${duration} s per case (baseline: /healthz)`, rows, rows[0]);
    // Only PostgreSQL's ratios are compared with the aim (below), so only it gets the paired rounds.
    summary.push({ label: target.label, build, rows, paired: target.label === "postgres" ? await pairedRounds(server.url, cookie) : {} });
  } finally {
    await server.stop();
  }
}

for (const build of builds) {
  const pgRows = summary.find((s) => s.label === "postgres" && s.build === build)?.rows;
  if (pgRows) {
    const row = (prefix: string) => pgRows.find((r) => r.name.startsWith(prefix));
    // Signed-in documents are rendered for each request; they are compared with the lightest one.
    const signedInPage = (r: Measurement) => r.name.startsWith("SSR /trades?view=matches") || r.name.startsWith("SSR /terms") || r.name.includes("(signed in)");
    const budget = pgRows.slice(1).filter((r) => !r.name.includes("cache miss") && !signedInPage(r));
    const over = budget.filter((r) => r.p99 >= 50 || r.errors + r.non2xx > 0);
    console.log(over.length ? `\n[${build}] Over the 50 ms p99 aim on PostgreSQL: ${over.map((r) => `${r.name} ${r.p99} ms`).join(", ")}` : `\n[${build}] Board, card filter and マッチ on PostgreSQL: p99 under 50 ms, no errors.`);
    // Pages rendered for each request, against the lightest page of the same run and sign-in state.
    const floorIn = row("SSR /terms (signed in)");
    const floorOut = row("SSR /terms, cache miss");
    const againstFloor: [string, Measurement | undefined, Measurement | undefined][] = [
      ["/trades signed in", row("SSR /trades (signed in)"), floorIn],
      ["/trades signed in, board read", row("SSR /trades, board read (signed in)"), floorIn],
      ["マッチ signed in", row("SSR /trades?view=matches"), floorIn],
      ["/trades signed out, cache miss", row("SSR /trades, cache miss"), floorOut],
    ];
    console.log(`\n[server mode: ${mode}] [${build}] PostgreSQL, ${offers} offers, ${connections} connections: each page against /terms of the same run and state (aim: req/s ≥ 0.5×, p99 ≤ 2×)`);
    for (const [name, page, floor] of againstFloor) {
      if (!page || !floor) continue;
      const rps = page.rps / floor.rps;
      const p99 = page.p99 / Math.max(floor.p99, 0.5);
      console.log(
        `  ${name.padEnd(32)} ${page.rps.toFixed(0).padStart(5)} req/s p99 ${String(page.p99).padStart(5)} ms; /terms ${floor.rps.toFixed(0).padStart(5)} req/s p99 ${String(floor.p99).padStart(5)} ms → ×${rps.toFixed(2)} req/s, ×${p99.toFixed(2)} p99 (${rps >= 0.5 && p99 <= 2 ? "met" : "not met"})`,
      );
    }
    const paired = summary.find((s) => s.label === "postgres" && s.build === build)?.paired ?? {};
    if (Object.keys(paired).length) {
      console.log(`  paired rounds (${pairs} × ${pairSeconds} s, each page right after its /terms): median ratio, and each round's`);
      for (const [name, { rps, p99 }] of Object.entries(paired)) {
        const met = median(rps) >= 0.5 && median(p99) <= 2;
        console.log(`  ${name.padEnd(32)} ×${median(rps).toFixed(2)} req/s (${rps.map((r) => r.toFixed(2)).join(", ")}), ×${median(p99).toFixed(2)} p99 (${p99.map((r) => r.toFixed(2)).join(", ")}) (${met ? "met" : "not met"})`);
      }
    }
    const pgl = summary.find((s) => s.label === "pglite" && s.build === build)?.rows;
    if (pgl) {
      console.log("\np99 PGlite / PostgreSQL:");
      pgRows.forEach((row, i) => {
        const other = pgl[i];
        if (other) console.log(`  ${row.name.replace(/ \(postgres\)$/, "").padEnd(34)} ${(other.p99 / Math.max(row.p99, 0.5)).toFixed(2)}×`);
      });
    }
  }
}
