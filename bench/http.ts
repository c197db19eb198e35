// `npm run bench`: requests/s and p50/p99 of the SSR home page and /healthz, against a bare
// node:http server measured in the same run, on PGlite and (when it answers) PostgreSQL. The home
// page is measured as signed-out visitors get it (from the page cache, renewed every few seconds)
// and as a cache miss (rendered for every request).
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case.
import { startServer } from "#tests/support/server.ts";
import { CACHE_MISS, measure, postgresTarget, printTable, startBareServer, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { duration, connections };

const bare = await startBareServer();
const baseline = await measure("bare node:http", bare.url, opts);
await bare.stop();

const rows: Measurement[] = [baseline];
const targets: { label: string; env: Record<string, string>; cleanup?: () => Promise<void> }[] = [{ label: "pglite", env: {} }];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);

const modes: string[] = [];
for (const target of targets) {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn" });
  modes.push(`${target.label} ${server.mode}`);
  try {
    // Warm up the route modules and the database before measuring.
    await measure("warm-up", `${server.url}/`, { duration: 2, connections: 4 });
    rows.push(await measure(`/healthz (${target.label})`, `${server.url}/healthz`, opts));
    rows.push(await measure(`SSR / (${target.label})`, `${server.url}/`, opts));
    rows.push(await measure(`SSR /, cache miss (${target.label})`, `${server.url}/`, { ...opts, headers: CACHE_MISS }));
  } finally {
    await server.stop();
    await target.cleanup?.();
  }
}

printTable(`[server mode: ${modes.join(", ")}] HTTP benchmark — ${connections} connections, ${duration} s per case`, rows, baseline);
