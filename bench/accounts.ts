// `npx tsx bench/accounts.ts`: what being signed in costs a page. Measures, on one server per
// database, the SSR home page and /profile for a signed-in user (session cookie → Better Auth
// session lookup → profile) against the anonymous home page of the same server (the baseline:
// no session query, and rendered for every request — it carries a cookie that keeps it away from
// the signed-out page cache, so the comparison is of the session, not of the cache), on PGlite
// and (when it answers) PostgreSQL.
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case, 127.0.0.1 only.
import { startServer } from "#tests/support/server.ts";
import { CACHE_MISS, measure, postgresTarget, printTable, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const opts = { duration, connections };

const targets: { label: string; env: Record<string, string>; cleanup?: () => Promise<void> }[] = [{ label: "pglite", env: {} }];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);

for (const target of targets) {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn" });
  try {
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ email: "bench-account@example.com", password: "bench-password", name: "ベンチ" }),
    });
    if (res.status !== 200) throw new Error(`sign-up answered ${res.status}`);
    const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await measure("warm-up", `${server.url}/`, { duration: 2, connections: 4 });
    await measure("warm-up", `${server.url}/profile`, { duration: 2, connections: 4, headers: { cookie } });

    const baseline = await measure(`SSR / anonymous, rendered (${target.label})`, `${server.url}/`, { ...opts, headers: CACHE_MISS });
    const rows: Measurement[] = [baseline];
    rows.push(await measure(`SSR / signed in (${target.label})`, `${server.url}/`, { ...opts, headers: { cookie } }));
    rows.push(await measure(`SSR /profile signed in (${target.label})`, `${server.url}/profile`, { ...opts, headers: { cookie } }));
    printTable(`[server mode: ${server.mode}] Accounts benchmark (${target.label}) — ${connections} connections, ${duration} s per case`, rows, baseline);
  } finally {
    await server.stop();
    await target.cleanup?.();
  }
}
