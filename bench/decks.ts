// `npm run bench:decks`: the deck recipe pages against /healthz measured in the same run and the
// same server, on PGlite and (when it answers) PostgreSQL. 60 public decks of 20 cards are made
// through the admin API first. Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default
// 10) per case at BENCH_CONNECTIONS (default 50), 127.0.0.1 only.
// Aim (issue 15, as for articles): a cache-miss page at least 0.25× the requests/s of /healthz.
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { CACHE_MISS, measure, postgresTarget, printTable, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { duration, connections };
const DECKS = 60;
const ADMIN = { email: "bench-decks@example.com", password: "bench-decks-password-7", name: "ベンチ" };

// A real 20-card deck of the catalogue (10 names × 2).
const CARDS = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
const DESCRIPTION = "## 使い方\n**ピカチュウex**とサンダーexで先攻から攻めます。\n[[card:A1-096]]\n- 雷エネルギーを加速\n- サカキで打点を上げる\n".repeat(4);

async function seedDecks(server: RunningServer): Promise<string> {
  const { url } = server;
  const up = await fetch(`${url}/api/auth/sign-up/email`, { method: "POST", headers: { origin: url, "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  if (!up.ok) throw new Error(`sign-up answered ${up.status}: ${await up.text()}`);
  // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  let slug = "";
  for (let i = 0; i < DECKS; i++) {
    const body = { name: `ベンチデッキ${i + 1}`, tier: (i % 4) + 1, category: "deck-recipe", energyTypes: ["electric"], isPublic: true, slug: `bench_deck-${i + 1}`, description: DESCRIPTION, cards: CARDS, relatedDeckIds: [] };
    const res = await fetch(`${url}/api/admin/decks`, { method: "POST", headers: { origin: url, cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`deck save answered ${res.status}: ${await res.text()}`);
    slug = ((await res.json()) as { slug: string }).slug;
  }
  return slug;
}

const targets: { label: string; env: Record<string, string>; cleanup(): Promise<void> }[] = [{ label: "pglite", env: {}, cleanup: async () => {} }];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);

const summary: string[] = [];
for (const target of targets) {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email });
  try {
    const slug = await seedDecks(server);
    // "cache miss" cases skip the signed-out page cache (a cookie); the deck service's own
    // 30-second cache of the data still answers, as it does for every visitor in production.
    const cases: [string, string, Record<string, string>?][] = [
      // The lightest server-rendered page, computed every time: the floor of any SSR page here.
      ["/terms, cache miss (SSR floor)", "/terms", CACHE_MISS],
      ["/deck-recipes", "/deck-recipes"],
      ["/deck-recipes, cache miss", "/deck-recipes", CACHE_MISS],
      ["/deck-recipes?energy=electric&tier=1, miss", "/deck-recipes?energy=electric&tier=1", CACHE_MISS],
      ["deck page", `/deck-recipes/${slug}`],
      ["deck page, cache miss", `/deck-recipes/${slug}`, CACHE_MISS],
      ["GET /api/decks/{slug}, cache miss", `/api/decks/${slug}`, CACHE_MISS],
    ];
    for (const [, path, headers] of cases) await measure("warm-up", `${server.url}${path}`, { duration: 1, connections: 4, headers });
    const healthz = await measure(`/healthz (${target.label})`, `${server.url}/healthz`, opts);
    const rows: Measurement[] = [healthz];
    for (const [name, path, headers] of cases) rows.push(await measure(`${name} (${target.label})`, `${server.url}${path}`, { ...opts, headers }));
    printTable(`Deck recipes on ${target.label} — ${DECKS} public decks, ${connections} connections, ${duration} s per case, ratios vs /healthz`, rows, healthz);
    for (const row of rows.slice(1)) summary.push(`${row.name}: ${(row.rps / healthz.rps).toFixed(2)}× /healthz req/s (${row.rps.toFixed(0)} vs ${healthz.rps.toFixed(0)}), p99 ${row.p99.toFixed(1)} ms, errors ${row.errors + row.non2xx}`);
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

console.log(`\nSummary\n${summary.map((s) => `- ${s}`).join("\n")}`);
