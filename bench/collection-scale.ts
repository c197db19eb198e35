// `npm run bench:collection-scale`: マイコレクション at the issue's scale (docs/decisions/049). PostgreSQL
// with BENCH_PLAYERS (default 20,000) players owning about BENCH_PRINTS (default 1,500) prints each
// — 30 million rows of collection_cards — and PGlite with BENCH_PGLITE_PLAYERS (default 1,000);
// BENCH_ONLY=postgres|pglite runs one. Each player owns a pseudo-random choice among the
// catalogue's named cards (a hash of player and card, so players complement each other), counts
// 1..3, keeps 1; half want missing cards, half a 30-card ほしいカード list; all opted in to trades.
//
// Seeding is set-based and in batches of BATCH_PLAYERS players: users, profiles and settings, the
// want lists and the collections written by INSERT … SELECT (collections in key order) with the
// summary triggers disabled, and by default the foreign-key checks of collection_cards and
// wanted_cards too (BENCH_FK_CHECKS=1 keeps them; all re-enabled in finally); each batch's
// summaries built by collection_summaries_rebuild (one call per batch of 500 players, so memory
// stays bounded) on a second connection while the next batch is inserted; then ANALYZE. Rows and
// seconds per phase are printed. A pool of BENCH_POOL players (default 2,000, or all) get sessions written straight into the
// database and cookies signed with a random BETTER_AUTH_SECRET the server is given (as
// bench:capacity does); they were active just now (their sign-in), so no case pays the 5-minute
// last-active write.
//
// Then the built server (`npm run build` first; production mode, printed) against the target, at
// BENCH_CONNECTIONS (default 20) for BENCH_SECONDS (default 5) per case, each after a 1 s warm-up,
// ratios against /terms of the same run (signed in, cookies rotating through the pool):
//   /collection?set=<the first set>  — signed-in pages have no page cache; cookies rotate
//   /collection/trades cold          — each request a pool player's first: no kept result yet
//                                      (kept per player for 60 s); also at 2 connections, the
//                                      finder pool's width, where no request waits for another
//   /collection/trades kept          — one player again and again
//   POST /api/collection/counts      — one tap as the page sends it (origin, JSON {changes}),
//                                      rotating players so the limit of 120 a minute is not hit
// The server's RSS (VmRSS, with the peak VmHWM) after start and after each case (after the cold
// トレード候補 cases it holds their kept results and the finder's structures); then, the server
// stopped, the finder timed in this process (BENCH_FINDER_RUNS, default 10 pool players, cold):
// where its time goes (BENCH_EXPLAIN=1 adds the statement's plan).
//
// Bounded: BENCH_BUDGET_MINUTES (default 14) for the whole run. Seeding stops between batches
// when the next batch would leave too little of the budget for what follows, and says so (the
// players seeded are then fewer than asked, printed in every title); a case that would start past
// the budget is skipped and named; a watchdog stops the server, drops the database and exits a
// minute past the budget whatever is running.
import { randomBytes } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { migrateDatabase, type Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { getCollectionSettings } from "#app/features/collection/collection.server.ts";
import { tradeSides } from "#app/features/collection/trade-sides.server.ts";
import { forgetTradeCandidates, listTradeCandidates, scannedPlayers } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { insertSessions, measure, pgliteTarget, postgresTarget, printTable, processMemory, type BenchTarget, type Measurement, type RequestChange } from "./support";

const began = Date.now();
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PRINTS = Number(process.env.BENCH_PRINTS ?? 1_500);
const POOL = Number(process.env.BENCH_POOL ?? 2_000);
const FINDER_RUNS = Number(process.env.BENCH_FINDER_RUNS ?? 10);
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MINUTES ?? 14) * 60_000;
const ONLY = process.env.BENCH_ONLY;
/** Players per seeding batch (one statement per table) and per collection_summaries_rebuild call. */
const BATCH_PLAYERS = 500;
/** A want list's length, as bench:trade-candidates seeds it. */
const WANTS = 30;
const SECRET = randomBytes(32).toString("base64url");
/**
 * Seconds per 1,000 players PGlite's seeding takes on this machine (measured: BENCH_PLAYERS=2000
 * BENCH_PGLITE_PLAYERS=300 …), kept aside from the budget while PostgreSQL seeds before it.
 */
const PGLITE_SEED_SECONDS_PER_1000 = 30;
/** A case: its warm-up, its run and the reading of its answers. */
const CASE_SECONDS = duration + 3;
const CASES = 6;
/** What a target needs after its seeding: the server's start and stop, the cases, the finder in process. */
const afterSeedingSeconds = CASES * CASE_SECONDS + 40;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const quantile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const playerId = (g: number) => `cs-${String(g).padStart(6, "0")}`;
/** The same id in SQL, of a generate_series column `g`. */
const playerIdSql = sql`'cs-' || lpad(g::text, 6, '0')`;
/** The catalogue's named cards, numbered 0.. in id order: what players own and want. */
const named = sql`named as (select id, (row_number() over (order by id))::int - 1 as r from cards where name <> '')`;

// Stops everything a minute past the budget, whatever is running (a statement, a case).
const cleanups: (() => Promise<unknown>)[] = [];
const watchdog = setTimeout(() => {
  console.log(`\nBUDGET: ${(BUDGET_MS / 60_000).toFixed(1)} min passed a minute ago; stopping what runs (the server, the database) and exiting.`);
  void Promise.allSettled(cleanups.map((c) => c())).then(() => process.exit(2));
}, BUDGET_MS + 60_000);
watchdog.unref();

const targets: { target: BenchTarget; players: number }[] = [];
if (ONLY !== "pglite") {
  const postgres = await postgresTarget();
  if (postgres) targets.push({ target: postgres, players: Number(process.env.BENCH_PLAYERS ?? 20_000) });
}
if (ONLY !== "postgres") targets.push({ target: pgliteTarget("collection-scale"), players: Number(process.env.BENCH_PGLITE_PLAYERS ?? 1_000) });

type Seeded = { players: number; cookies: string[]; setKey: string; namedIds: string[] };

/**
 * The catalogue, then players in batches (each whole: players, want lists, collections,
 * summaries) while the budget allows, then ANALYZE and the pool's sessions.
 */
async function seed(target: BenchTarget, asked: number, deadline: number): Promise<Seeded> {
  const database = await target.open();
  const { db } = database;
  const phases = new Map<string, number>();
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    try {
      return await work();
    } finally {
      phases.set(phase, (phases.get(phase) ?? 0) + Date.now() - t);
    }
  };
  const started = Date.now();
  try {
    await timed("migrations and catalogue", async () => {
      await migrateDatabase(database);
      await seedCatalogue(db);
    });
    const namedIds = (await rowsOf<{ id: string }>(db, sql`select id from cards where name <> '' order by id`)).map((r) => r.id);
    const n = namedIds.length;
    // Owned when a 30-bit hash of (player, card) falls under the threshold: about PRINTS of the n
    // named cards each, a different choice per player; the count (1..3) from the same hash.
    const threshold = Math.floor(Math.min(1, PRINTS / n) * 2 ** 30);
    // A want list: WANTS named cards from a per-player offset at a stride prime to n (all distinct).
    let stride = Math.max(1, Math.round(n * 0.618));
    while (gcd(stride, n) !== 1) stride++;
    const [set] = await rowsOf<{ code: string }>(db, sql`select set_code as code from packs group by set_code order by min(sort_order), set_code limit 1`);
    console.log(`[${target.label}] seeding ${asked} players in batches of ${BATCH_PLAYERS}: ~${Math.min(PRINTS, n)} of the ${n} named cards each (counts 1..3, keep 1), ${WANTS} wanted each; summary triggers disabled while inserting`);

    let players = 0;
    // The summary triggers (user triggers) off while inserting, and by default the foreign-key
    // checks of the two big tables too: the rows are valid by construction (each batch's players
    // are inserted first, the cards come from the catalogue), and checking them row by row costs
    // about three times the insert itself (750,000 rows: 8.4 s with them, 2.3 s without, on this
    // machine). BENCH_FK_CHECKS=1 keeps them; disabling them needs a superuser, else they stay on.
    const summaryTriggers = ["collection_cards", "wanted_cards", "collection_settings"];
    const fkTables = process.env.BENCH_FK_CHECKS === "1" ? [] : ["collection_cards", "wanted_cards"];
    const disabled = new Map<string, "user" | "all">();
    const enableAll = async () => {
      for (const [table, which] of disabled) await db.execute(sql.raw(`alter table ${table} enable trigger ${which}`));
      disabled.clear();
    };
    try {
      for (const table of summaryTriggers) {
        if (fkTables.includes(table)) {
          try {
            await db.execute(sql.raw(`alter table ${table} disable trigger all`));
            disabled.set(table, "all");
            continue;
          } catch (error) {
            console.log(`[${target.label}] ${table}: foreign-key checks stay on (${(error as Error).message})`);
          }
        }
        await db.execute(sql.raw(`alter table ${table} disable trigger user`));
        disabled.set(table, "user");
      }
      console.log(`[${target.label}] while inserting: disabled ${[...disabled].map(([table, which]) => `${table} ${which === "all" ? "triggers and foreign-key checks" : "triggers"}`).join(", ")}`);
      // Each batch's summaries are built on a second connection while the next batch is inserted
      // (two cores; on PGlite, one connection, they simply follow each other).
      let summaries: Promise<unknown> = Promise.resolve();
      let failed: unknown = null;
      const batchTimes: number[] = [];
      while (players < asked) {
        // Each batch ends whole; the next starts only when it and what follows the seeding fit.
        const next = Math.min(asked, players + BATCH_PLAYERS);
        const perBatch = batchTimes.length ? Math.max(...batchTimes.slice(-3)) : 0;
        const analyzeGuess = (Date.now() - started) * 0.05;
        if (players > 0 && Date.now() + perBatch * ((next - players) / BATCH_PLAYERS) + analyzeGuess > deadline) {
          const rate = (batchTimes.reduce((a, b) => a + b, 0) / players) * 1000;
          console.log(
            `[${target.label}] BUDGET: seeded ${players} of the ${asked} players asked and stopped there: at ${(rate / 1000).toFixed(1)} s per 1,000 players the rest (~${seconds(rate * ((asked - players) / 1000))}) would leave less than the run needs after seeding within BENCH_BUDGET_MINUTES=${BUDGET_MS / 60_000}. Every figure below is for ${players} players.`,
          );
          break;
        }
        const t = Date.now();
        const [lo, hi] = [players + 1, next];
        await insertBatch(db, timed, lo, hi, { n, threshold, stride });
        await summaries;
        if (failed) throw failed;
        summaries = timed("summaries (collection_summaries_rebuild)", () => db.execute(sql`select collection_summaries_rebuild(array(select ${playerIdSql} from generate_series(${lo}::int, ${hi}::int) g))`)).catch((error: unknown) => {
          failed = error;
        });
        players = hi;
        batchTimes.push(Date.now() - t);
        if (batchTimes.length % 10 === 0) console.log(`[${target.label}]   ${players} players inserted, ${seconds(Date.now() - started)}`);
      }
      const t = Date.now();
      await summaries;
      if (failed) throw failed;
      // The last batch's summaries, built after the inserts: part of the seeding's wall time.
      batchTimes.push(Date.now() - t);
    } finally {
      await enableAll();
    }
    await timed("analyze", () => db.execute(sql`analyze`));
    const pool = Math.min(POOL, players);
    const cookies = await timed("sessions (pool)", async () => {
      const ids = Array.from({ length: pool }, (_, i) => playerId(i + 1));
      const made = await insertSessions(db, ids, SECRET);
      // Signed in just now: active now, as a sign-in leaves a player.
      await db.execute(sql`update profiles set last_active_at = now() where user_id in (select ${playerIdSql} from generate_series(1, ${pool}::int) g)`);
      return made;
    });
    const seedMs = Date.now() - started;
    const [counts] = await rowsOf<{ collection: number; wanted: number; summaries: number; sized: string; players: number }>(
      db,
      sql`select (select count(*)::int from collection_cards) as collection, (select count(*)::int from wanted_cards) as wanted,
                 (select count(*)::int from collection_summaries) as summaries, (select count(*)::int from collection_settings) as players,
                 pg_size_pretty(pg_total_relation_size('collection_cards')) as sized`,
    );
    console.log(
      `[${target.label}] seeded ${counts.players} players: ${counts.collection.toLocaleString("en")} collection_cards rows (${(counts.collection / Math.max(1, counts.players)).toFixed(0)} a player; table and index ${counts.sized}), ${counts.wanted.toLocaleString("en")} wanted_cards rows, ${counts.summaries} summaries; ${pool} signed-in sessions`,
    );
    console.log(`[${target.label}] seeding ${seconds(seedMs)} in all (wall); per phase: ${[...phases].map(([phase, ms]) => `${phase} ${seconds(ms)}`).join(", ")} (summaries overlap the next batch's inserts)`);
    const perThousand = (seedMs - (phases.get("migrations and catalogue") ?? 0)) / Math.max(1, players / 1000);
    const catalogueMs = phases.get("migrations and catalogue") ?? 0;
    console.log(`[${target.label}] ${seconds(perThousand)} per 1,000 players (catalogue aside)${target.label === "postgres" && players < 20_000 ? `: 20,000 players would take ~${seconds((perThousand * 20_000) / 1000 + catalogueMs)} at this rate` : ""}`);
    return { players, cookies, setKey: set.code, namedIds };
  } finally {
    await database.close();
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Players lo..hi: their rows in each table (their summaries are built after, see seed). */
async function insertBatch(db: Db, timed: <T>(phase: string, work: () => Promise<T>) => Promise<T>, lo: number, hi: number, shape: { n: number; threshold: number; stride: number }): Promise<void> {
  const { n, threshold, stride } = shape;
  const players = sql`generate_series(${lo}::int, ${hi}::int) g`;
  await timed("players (users, profiles, settings)", async () => {
    await db.execute(sql`insert into users (id, name, email) select ${playerIdSql}, 'ベンチ' || g, ${playerIdSql} || '@example.com' from ${players}`);
    await db.execute(sql`insert into profiles (user_id, display_name, friend_id, last_active_at)
        select ${playerIdSql}, 'ベンチ' || g, lpad(g::text, 16, '8'), now() - make_interval(mins => (g * 7) % (13 * 24 * 60)) from ${players}`);
    await db.execute(sql`insert into collection_settings (user_id, use_for_trades, keep_count, want_mode)
        select ${playerIdSql}, true, 1, case when g % 2 = 0 then 'missing' else 'wants' end from ${players}`);
  });
  await timed("want lists", () =>
    db.execute(sql`with ${named}
        insert into wanted_cards (user_id, card_id)
        select ${playerIdSql}, c.id from ${players} cross join generate_series(0, ${Math.min(WANTS, n) - 1}::int) k
        join named c on c.r = ((hashint4(g) & 1073741823) % ${n}::int + k * ${stride}::int) % ${n}::int`),
  );
  // In key order, so the primary key grows at its right edge.
  await timed("collections", () =>
    db.execute(sql`with ${named}
        insert into collection_cards (user_id, card_id, count)
        select x.user_id, x.card_id, 1 + x.h % 3 from (
          select ${playerIdSql} as user_id, c.id as card_id, hashint8(g::bigint * 1000003 + c.r) & 1073741823 as h from ${players} cross join named c
        ) x
        where x.h < ${threshold}::int
        order by x.user_id, x.card_id`),
  );
}

/** Cookies of the pool in turn from `from`; `wraps` counts the times it started over. */
function rotation(cookies: string[], from = 0) {
  let i = from;
  const state = {
    wraps: 0,
    used: 0,
    next(): string {
      if (i >= cookies.length) {
        i = from;
        state.wraps++;
      }
      state.used++;
      return cookies[i++];
    },
  };
  return state;
}

async function run(target: BenchTarget, asked: number, deadline: number): Promise<void> {
  const seeded = await seed(target, asked, deadline);
  const { cookies, setKey, namedIds, players } = seeded;
  const server: RunningServer = await startServer({ LOG_LEVEL: "warn", BETTER_AUTH_SECRET: SECRET, SEED_CATALOGUE: "never", ...target.env });
  const stopServer = () => server.stop("SIGKILL");
  cleanups.push(stopServer);
  const pid = server.process.pid!;
  const memory: [string, ReturnType<typeof processMemory>][] = [["after start", processMemory(pid)]];
  const rows: Measurement[] = [];
  const notes: string[] = [];
  try {
    const { url } = server;
    console.log(`[${target.label}] server in ${server.mode} mode (pid ${pid}), ${players} players, ${cookies.length} signed in, ${connections} connections, ${duration} s per case; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${availableParallelism()} cores`);
    const terms = rotation(cookies);
    const pages = rotation(cookies);
    // Player 0 is the one whose kept result answers again and again; the cold cases start after it.
    const cold = rotation(cookies, 1);
    const tappers = rotation(cookies);
    const signedIn = (r: ReturnType<typeof rotation>) => (): RequestChange => ({ headers: { cookie: r.next() } });
    const tap = (): RequestChange => ({
      method: "POST",
      path: "/api/collection/counts",
      headers: { cookie: tappers.next(), origin: url, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ changes: [{ cardId: namedIds[Math.floor(Math.random() * namedIds.length)], count: 1 + Math.floor(Math.random() * 3) }] }),
    });
    const cases: { name: string; path: string; next?: () => RequestChange; headers?: Record<string, string>; connections?: number; before?: () => Promise<void> }[] = [
      { name: "/terms (signed in, floor)", path: "/terms", next: signedIn(terms) },
      { name: `/collection?set=${setKey}`, path: `/collection?set=${setKey}`, next: signedIn(pages) },
      { name: "/collection/trades cold", path: "/collection/trades", next: signedIn(cold) },
      { name: "/collection/trades cold, 2 conn.", path: "/collection/trades", next: signedIn(cold), connections: 2 },
      {
        name: "/collection/trades kept",
        path: "/collection/trades",
        headers: { cookie: cookies[0] },
        // Its first request computes the result the run then answers from.
        before: async () => void (await (await fetch(`${url}/collection/trades`, { headers: { cookie: cookies[0] } })).text()),
      },
      { name: "POST /api/collection/counts", path: "/api/collection/counts", next: tap },
    ];
    for (const c of cases) {
      if (Date.now() + CASE_SECONDS * 1000 > began + BUDGET_MS) {
        notes.push(`${c.name}: skipped, the budget (BENCH_BUDGET_MINUTES=${BUDGET_MS / 60_000}) is spent`);
        continue;
      }
      await c.before?.();
      const options = { headers: c.headers, nextRequest: c.next };
      await measure("warm-up", `${url}${c.path}`, { duration: 1, connections: 2, ...options });
      const result = await measure(c.name, `${url}${c.path}`, { duration, connections: c.connections ?? connections, ...options });
      rows.push(result);
      // The server's memory after each case; after the cold トレード候補 cases it holds their kept results.
      memory.push([`after ${c.name}`, processMemory(pid)]);
      const statuses = Object.entries(result.statuses).map(([status, count]) => `${status}×${count}`).join(", ");
      if (result.non2xx || result.errors) notes.push(`${c.name}: answers ${statuses}, ${result.errors} errors or timeouts`);
      if (!result.requests) notes.push(`${c.name}: no answer finished within its ${duration} s (its figures are 0)`);
    }
    notes.push(`cold トレード候補: ${cold.used} requests with warm-ups, each a different player's first${cold.wraps ? `, BUT the pool of ${cookies.length} ran out ${cold.wraps}× (later requests may be kept results)` : ""}; taps: ${tappers.used} from ${Math.min(tappers.used, cookies.length)} players (at most ${Math.ceil(tappers.used / cookies.length)} each)`);
  } finally {
    await server.stop();
    cleanups.splice(cleanups.indexOf(stopServer), 1);
  }
  if (rows.length) printTable(`マイコレクション at scale on ${target.label} — ${players} players (~${PRINTS} prints each), ${connections} connections (unless said), ${duration} s per case, ratios vs /terms`, rows, rows[0]);
  for (const note of notes) console.log(`  ${note}`);
  console.log(`[${target.label}] server memory (VmRSS now, VmHWM peak so far); load average at the end ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  for (const [when, m] of memory) console.log(`  ${when.padEnd(42)} RSS ${mb(m.rss).padStart(7)}  peak ${mb(m.peak).padStart(7)}`);
  if (Date.now() + 20_000 < began + BUDGET_MS) await finderInProcess(target, cookies.length);
  else console.log(`[${target.label}] finder in process: skipped, the budget is spent`);
}

/** The finder timed in this process on pool players no case used cold: a cold computation, and its two reads. */
async function finderInProcess(target: BenchTarget, pool: number): Promise<void> {
  const database = await target.open();
  const { db } = database;
  try {
    // From the end of the pool, away from the players the cold cases used.
    const ids = Array.from({ length: Math.min(FINDER_RUNS, pool - 1) }, (_, i) => playerId(pool - i));
    if (!ids.length) return;
    await cardIndex(db);
    const coldTimes: number[] = [];
    const sideTimes: number[] = [];
    const statementTimes: number[] = [];
    let found = 0;
    for (const userId of ids) {
      forgetTradeCandidates();
      let t = performance.now();
      found += (await listTradeCandidates(db, userId)).candidates.length;
      coldTimes.push(performance.now() - t);
      const settings = await getCollectionSettings(db, userId);
      const index = await cardIndex(db);
      t = performance.now();
      await tradeSides(db, userId, settings, index, new Date());
      sideTimes.push(performance.now() - t);
      t = performance.now();
      await rowsOf(db, scannedPlayers(userId, null));
      statementTimes.push(performance.now() - t);
    }
    const line = (label: string, times: number[]) => `[${target.label}] ${label.padEnd(52)} median ${quantile(times, 0.5).toFixed(1).padStart(7)} ms, max ${Math.max(...times).toFixed(1).padStart(7)} ms (${times.length} players)`;
    console.log(`[${target.label}] finder in this process, one at a time, ${(found / ids.length).toFixed(0)} candidates a player:`);
    console.log(line("listTradeCandidates cold (nothing kept)", coldTimes));
    console.log(line("  of which my side (tradeSides: my rows, the rules)", sideTimes));
    console.log(line("  of which the statement (300 players, summaries)", statementTimes));
    if (process.env.BENCH_EXPLAIN) {
      const plan = await rowsOf<{ "QUERY PLAN": string }>(db, sql`explain (analyze, buffers) ${scannedPlayers(ids[0], null)}`);
      console.log(`[${target.label}] EXPLAIN ANALYZE of the statement:\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
    }
  } finally {
    await database.close();
  }
}

try {
  for (const [i, { target, players }] of targets.entries()) {
    const cleanup = () => target.cleanup();
    cleanups.push(cleanup);
    // Later targets' seeding and cases are kept aside from the budget of this one's seeding.
    const later = targets.slice(i + 1).reduce((s, t) => s + afterSeedingSeconds * 1000 + (t.target.label === "pglite" ? (t.players / 1000) * PGLITE_SEED_SECONDS_PER_1000 * 1000 : 0), 0);
    const deadline = began + BUDGET_MS - afterSeedingSeconds * 1000 - later;
    try {
      await run(target, players, deadline);
    } finally {
      await target.cleanup();
      cleanups.splice(cleanups.indexOf(cleanup), 1);
    }
  }
} finally {
  clearTimeout(watchdog);
}
console.log(`\nbench:collection-scale done in ${seconds(Date.now() - began)} (budget ${BUDGET_MS / 60_000} min)`);
