// `npm run bench:cards`: the card search API, the pack listing API and the /cards SSR page
// against /healthz measured in the same run and the same server, on PGlite and (when it
// answers) PostgreSQL; then the CSV import of the whole real catalogue on both databases.
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case, 127.0.0.1 only.
// Aim (issue 4): search p99 under 20 ms and at least half the throughput of /healthz.
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { catalogueCsv } from "#app/features/cards/catalogue-csv.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { importCardsFromCsv } from "#app/features/cards/import.server.ts";
import { startServer } from "#tests/support/server.ts";
import { CACHE_MISS, measure, postgresTarget, printTable, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { duration, connections };

// Signed-out visitors share answers through the page cache (server/page-cache.ts); the
// "cache miss" cases send a cookie that keeps them away from it, so they are computed every time.
const CASES: [string, string, Record<string, string>?][] = [
  ["search ぴかちゅう (5 chars)", `/api/cards/search?q=${encodeURIComponent("ぴかちゅう")}`],
  ["search ピ (1 char)", `/api/cards/search?q=${encodeURIComponent("ピ")}`],
  ["search ぴかちゅう, cache miss", `/api/cards/search?q=${encodeURIComponent("ぴかちゅう")}`, CACHE_MISS],
  ["search ピ, cache miss", `/api/cards/search?q=${encodeURIComponent("ピ")}`, CACHE_MISS],
  ["GET /api/cards?pack=dialga", "/api/cards?pack=dialga&limit=60"],
  ["SSR /cards?pack=dialga", "/cards?pack=dialga"],
  ["SSR /cards?pack=dialga, cache miss", "/cards?pack=dialga", CACHE_MISS],
];

const targets: BenchTarget[] = [{ label: "pglite", env: {}, open: () => openDatabase({ kind: "pglite" }), cleanup: async () => {} }];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);

const summary: string[] = [];
for (const target of targets) {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn" });
  const rows: Measurement[] = [];
  try {
    for (const [, path] of CASES) await measure("warm-up", `${server.url}${path}`, { duration: 1, connections: 4 });
    const healthz = await measure(`/healthz (${target.label})`, `${server.url}/healthz`, opts);
    rows.push(healthz);
    for (const [name, path, headers] of CASES) rows.push(await measure(`${name} (${target.label})`, `${server.url}${path}`, { ...opts, headers }));
    printTable(`[server mode: ${server.mode}] Cards benchmark on ${target.label} — ${connections} connections, ${duration} s per case, ratios vs /healthz`, rows, healthz);
    for (const row of rows.slice(1)) {
      summary.push(`${row.name}: ${(row.rps / healthz.rps).toFixed(2)}× /healthz req/s, p99 ${row.p99.toFixed(1)} ms`);
    }
  } finally {
    await server.stop();
  }

  // The import of the whole real catalogue as one CSV, twice (the second run updates in place).
  const csv = catalogueCsv({ imageBase: "https://img.example/cards" });
  const database = await target.open();
  try {
    // Both are idempotent: the PostgreSQL database already holds what the server loaded.
    await migrateDatabase(database);
    await seedCatalogue(database.db);
    for (const run of ["first", "again"]) {
      const started = performance.now();
      const { count } = await importCardsFromCsv(database.db, { title: "dialga", csvData: csv });
      const ms = performance.now() - started;
      const line = `CSV import (${target.label}, ${run}): ${count} rows in ${ms.toFixed(0)} ms`;
      console.log(line);
      summary.push(line);
    }
  } finally {
    await database.close();
    await target.cleanup();
  }
}

console.log(`\nSummary\n${summary.map((s) => `- ${s}`).join("\n")}`);
