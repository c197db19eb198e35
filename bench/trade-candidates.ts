// `npm run bench:trade-candidates`: トレード候補 (/collection/trades) against /terms (the SSR floor)
// measured in the same run and server, production build, PGlite and PostgreSQL. Seeds
// BENCH_PLAYERS (default 1,000) opted-in players, each owning about half of the catalogue's
// prints (~1,500, counts 1..3), half wanting missing cards and half their ほしいカード list of
// 30 cards, all active in the last 14 days; the measured player owns as many. Also times the
// finder called directly in the bench process: the statement the collection summaries replaced
// (docs/decisions/049) against the summaries' finder in the same run (BENCH_COLD_RUNS, default 20;
// BENCH_EXPLAIN=1 prints both plans), then cold (kept results forgotten) and kept, and what the
// summaries' triggers add to a tap (BENCH_TAPS, default 200, with them and without). The page
// answers from the player's kept result after its first request. Needs a build
// (`npm run build`). Bounded: BENCH_SECONDS (default 5) per case at BENCH_CONNECTIONS (default 10).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { eq, sql } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { profiles } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { getCollectionSettings, saveCollectionSettings, setCardCounts } from "#app/features/collection/collection.server.ts";
import { tradeSides } from "#app/features/collection/trade-sides.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { findCandidateRows, forgetTradeCandidates, listTradeCandidates, scannedPlayers, tradeCandidatesUsing } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { referenceFinder } from "#tests/support/trade-finder-reference.ts";
import { ensureProfile, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { startServer } from "#tests/support/server.ts";
import { measure, postgresTarget, printTable, signInAs, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const players = Number(process.env.BENCH_PLAYERS ?? 1_000);
const quantile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const PLAYER = { name: "ベンチ", email: "bench-candidates@example.com", password: "bench-candidates-pass-7" };

const pgliteDir = mkdtempSync(path.join(tmpdir(), "torepoke-bench-candidates-"));
const targets: BenchTarget[] = [];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);
if (process.env.BENCH_ONLY !== "postgres") {
  targets.push({
    label: "pglite",
    env: { DATA_DIR: pgliteDir },
    open: () => openDatabase({ kind: "pglite", dataDir: path.join(pgliteDir, "db") }),
    cleanup: async () => rmSync(pgliteDir, { recursive: true, force: true }),
  });
}

async function prepare(target: BenchTarget): Promise<void> {
  const database = await target.open();
  const { db } = database;
  try {
    await migrateDatabase(database);
    const started = Date.now();
    await seedCatalogue(db);
    // Players, their profiles and settings, their counts and lists: set-based inserts in the database.
    await db.execute(sql`insert into users (id, name, email) select 'bench-' || g, 'ベンチ' || g, 'bench-' || g || '@example.com' from generate_series(1, ${players}) g`);
    await db.execute(sql`insert into profiles (user_id, display_name, friend_id, last_active_at)
        select 'bench-' || g, 'ベンチ' || g, lpad(g::text, 16, '9'), now() - make_interval(mins => (g * 7) % (13 * 24 * 60)) from generate_series(1, ${players}) g`);
    await db.execute(sql`insert into collection_settings (user_id, use_for_trades, keep_count, want_mode)
        select 'bench-' || g, true, 1, case when g % 2 = 0 then 'missing' else 'wants' end from generate_series(1, ${players}) g`);
    await db.execute(sql`insert into collection_cards (user_id, card_id, count)
        select u.id, c.id, 1 + floor(random() * 3)::int from users u cross join cards c
        where u.id like 'bench-%' and c.name <> '' and random() < 0.5`);
    await db.execute(sql`insert into wanted_cards (user_id, card_id)
        select distinct u.id, c.id from users u cross join lateral (select id from cards where name <> '' order by random() limit 30) c
        where u.id like 'bench-%'`);
    const env = loadEnv({ DATA_DIR: pgliteDir, SITE_URL: "http://127.0.0.1", LOG_LEVEL: "silent" });
    const signUp = await getAuth(db, env).api.signUpEmail({ body: PLAYER });
    const userId = signUp.user.id;
    await ensureProfile(db, userId, PLAYER.name);
    await db.update(profiles).set({ friendId: "1111222233334444" }).where(eq(profiles.userId, userId));
    await db.execute(sql`insert into collection_cards (user_id, card_id, count) select ${userId}, id, 1 + floor(random() * 3)::int from cards where name <> '' and random() < 0.5`);
    await saveCollectionSettings(db, userId, { showProgress: false, useForTrades: true });
    // The statistics a live database's autovacuum keeps (the planner's choice between reading each
    // player's range and probing it depends on them).
    await db.execute(sql`analyze`);
    const [rows] = await Promise.all([db.execute(sql`select count(*)::int as n from collection_cards`)]);
    const count = (rows as unknown as { rows: { n: number }[] }).rows[0].n;
    console.log(`[${target.label}] seeded ${players} players, ${count} collection rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Before → after in one run: the statement the summaries replaced (every scanned player's
    // collection range read and anti-joined), then the finder as the site runs it (one summary row
    // per scanned player), each cold — nothing kept — BENCH_COLD_RUNS times.
    const runs = Number(process.env.BENCH_COLD_RUNS ?? 20);
    const reference = referenceFinder();
    const statementTimes: number[] = [];
    const summaryTimes: number[] = [];
    let same = true;
    let found = 0;
    for (let i = 0; i < Math.min(runs, 5); i++) {
      let t = performance.now();
      const before = await tradeCandidatesUsing(db, userId, reference);
      statementTimes.push(performance.now() - t);
      t = performance.now();
      const after = await tradeCandidatesUsing(db, userId, findCandidateRows);
      summaryTimes.push(performance.now() - t);
      same &&= isDeepStrictEqual(before, after);
      found = after.candidates.length;
    }
    for (let i = summaryTimes.length; i < runs; i++) {
      const t = performance.now();
      await tradeCandidatesUsing(db, userId, findCandidateRows);
      summaryTimes.push(performance.now() - t);
    }
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      forgetTradeCandidates();
      const t = performance.now();
      await listTradeCandidates(db, userId);
      cold.push(performance.now() - t);
    }
    const keptTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await listTradeCandidates(db, userId);
      keptTimes.push(performance.now() - t);
    }
    const line = (label: string, times: number[]) => `${label.padEnd(44)} median ${quantile(times, 0.5).toFixed(1).padStart(8)} ms, p99 ${quantile(times, 0.99).toFixed(1).padStart(8)} ms (${times.length} runs)`;
    console.log(`[${target.label}] finder in process, ${found} candidates; the same candidates and pairs both ways: ${same ? "yes" : "NO"}`);
    console.log(`[${target.label}] ${line("before: full statement, computed", statementTimes)}`);
    console.log(`[${target.label}] ${line("after: collection summaries, computed", summaryTimes)}`);
    console.log(`[${target.label}] ${line("after: listTradeCandidates, cold (forgotten)", cold)}`);
    console.log(`[${target.label}] ${line("after: listTradeCandidates, kept", keptTimes)}`);
    console.log(`[${target.label}] summaries vs statement: ×${(quantile(summaryTimes, 0.5) / quantile(statementTimes, 0.5)).toFixed(3)} median`);
    // Where a cold computation's time goes: my side (my rows, the trade rules), the one statement
    // (players and their summaries), the rest (pairing in memory, response records, costs).
    const sideTimes: number[] = [];
    const statementOnly: number[] = [];
    for (let i = 0; i < Math.min(runs, 10); i++) {
      const settings = await getCollectionSettings(db, userId);
      const index = await cardIndex(db);
      let t = performance.now();
      await tradeSides(db, userId, settings, index, new Date());
      sideTimes.push(performance.now() - t);
      t = performance.now();
      await rowsOf(db, scannedPlayers(userId, null));
      statementOnly.push(performance.now() - t);
    }
    console.log(`[${target.label}] ${line("  of which my side (tradeSides)", sideTimes)}`);
    console.log(`[${target.label}] ${line("  of which the statement (players, summaries)", statementOnly)}`);
    // What keeping the summaries costs a count change: one tap (setCardCounts of one card) by
    // BENCH_TAPS players, with the summary triggers and without them (disabled for the block),
    // alternating blocks in the same run. Each player's second tap, with the triggers, rewrites
    // the bit of the card the first changed, so the summaries stay true for the page below.
    const taps = Number(process.env.BENCH_TAPS ?? 200);
    const [tapCard] = await rowsOf<{ id: string }>(db, sql`select id from cards where name <> '' order by id limit 1`);
    const withTriggers: number[] = [];
    const withoutTriggers: number[] = [];
    const blocks = 4;
    const perBlock = Math.max(1, Math.floor(taps / blocks));
    for (let b = 0; b < blocks; b += 2) {
      const from = (b / 2) * perBlock + 1;
      for (const [enabled, into, count] of [[false, withoutTriggers, 2], [true, withTriggers, 3]] as const) {
        if (!enabled) await db.execute(sql`alter table collection_cards disable trigger user`);
        try {
          for (let i = from; i < from + perBlock; i++) {
            const t = performance.now();
            await setCardCounts(db, `bench-${i}`, [{ cardId: tapCard.id, count }]);
            into.push(performance.now() - t);
          }
        } finally {
          if (!enabled) await db.execute(sql`alter table collection_cards enable trigger user`);
        }
      }
    }
    console.log(`[${target.label}] ${line("a tap without the summary triggers", withoutTriggers)}`);
    console.log(`[${target.label}] ${line("a tap with the summary triggers", withTriggers)}`);
    console.log(`[${target.label}] tap with vs without: ×${(quantile(withTriggers, 0.5) / quantile(withoutTriggers, 0.5)).toFixed(2)} median, ×${(quantile(withTriggers, 0.99) / quantile(withoutTriggers, 0.99)).toFixed(2)} p99`);
    if (process.env.BENCH_EXPLAIN) {
      await tradeCandidatesUsing(db, userId, referenceFinder((plan) => console.log(`\n[${target.label}] EXPLAIN ANALYZE, full statement:\n${plan}`)));
      const plan = await rowsOf<{ "QUERY PLAN": string }>(db, sql`explain (analyze, buffers) ${scannedPlayers(userId, null)}`);
      console.log(`\n[${target.label}] EXPLAIN ANALYZE, summaries:\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
    }
  } finally {
    await database.close();
  }
}


for (const target of targets) {
  try {
    await prepare(target);
    const server = await startServer({ LOG_LEVEL: "warn", ...target.env });
    try {
      const cookie = await signInAs(server.url, PLAYER);
      const cases: [string, string][] = [
        ["/terms (SSR floor)", "/terms"],
        ["/collection/trades", "/collection/trades"],
      ];
      for (const [, p] of cases) await measure("warm-up", `${server.url}${p}`, { duration: 1, connections: 2, headers: { cookie } });
      const rows: Measurement[] = [];
      for (const [name, p] of cases) rows.push(await measure(name, `${server.url}${p}`, { duration, connections, headers: { cookie } }));
      printTable(`トレード候補 on ${target.label} — ${players} opted-in players, ${connections} connections, ${duration} s per case, ratios vs /terms`, rows, rows[0]);
    } finally {
      await server.stop();
    }
  } finally {
    await target.cleanup();
  }
}
