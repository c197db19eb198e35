// `npm run bench:collection`: /collection for a player owning ~2,000 prints against /terms (the
// SSR floor) measured in the same run and server, production build, PGlite. Needs a build
// (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case at BENCH_CONNECTIONS (default 10).
// Not measured here yet: a count change (the per-player limit of 120 changes a minute answers 429
// to one player's flood; it needs a pool of players) and the 30-million-row PostgreSQL case.
import { startServer } from "#tests/support/server.ts";
import { measure, printTable, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TARGET_PRINTS = 2000;

const server = await startServer({ LOG_LEVEL: "warn" });
try {
  const { url } = server;
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ email: "bench-collection@example.com", password: "bench-collection-pass-7", name: "ベンチ" }),
  });
  if (!up.ok) throw new Error(`sign-up answered ${up.status}`);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const headers = { origin: url, cookie, "content-type": "application/json" };
  const progress = (await (await fetch(`${url}/api/collection/progress`, { headers })).json()) as { sets: { key: string; total: number }[] };
  let owned = 0;
  let firstSet = "";
  // この絞り込みをすべて1枚にする, set by set, until the player owns ~2,000 prints.
  for (const set of progress.sets) {
    if (owned >= TARGET_PRINTS) break;
    const res = await fetch(`${url}/api/collection/bulk`, { method: "POST", headers, body: JSON.stringify({ filter: { set: set.key }, mode: "one" }) });
    if (!res.ok) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
    owned += ((await res.json()) as { counts: unknown[] }).counts.length;
    firstSet ||= set.key;
  }
  const cases: [string, string][] = [
    ["/terms (SSR floor)", "/terms"],
    [`/collection?set=${firstSet}`, `/collection?set=${firstSet}`],
    [`/collection?set=${firstSet}&owned=missing`, `/collection?set=${firstSet}&owned=missing`],
    ["GET /api/collection/progress", `/api/collection/progress?set=${firstSet}`],
  ];
  for (const [, path] of cases) await measure("warm-up", `${url}${path}`, { duration: 1, connections: 2, headers: { cookie } });
  const rows: Measurement[] = [];
  for (const [name, path] of cases) rows.push(await measure(name, `${url}${path}`, { duration, connections, headers: { cookie } }));
  printTable(`マイコレクション on PGlite — one player owning ${owned} prints, ${connections} connections, ${duration} s per case, ratios vs /terms`, rows, rows[0]);
} finally {
  await server.stop();
}
