// `npm run bench:articles`: what readers of articles cost, against /healthz measured in the same
// run and the same server, on PGlite and (when it answers) PostgreSQL: the /articles list and an
// article page of about 10,000 characters (headings, card blocks, links), signed out — through the
// signed-out page cache and past it ("cache miss": a cookie keeps the request away from it, so
// React renders the page every time). Articles are written through the admin API like a script
// would. Needs `npm run build`. Bounded: BENCH_SECONDS (default 10) per case, 127.0.0.1 only.
// Aim (issue 14): the cache-miss article page at least 0.25× /healthz requests/s.
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { longArticle } from "./fixtures";
import { CACHE_MISS, measure, postgresTarget, printTable, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { duration, connections };
const ADMIN = { email: "bench-articles@example.com", password: "bench-articles-secret-2026", name: "ベンチ" };
const AIM = 0.25;

async function seed(server: RunningServer): Promise<string> {
  const { url } = server;
  const headers = { origin: url, "content-type": "application/json" };
  const up = await fetch(`${url}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify(ADMIN) });
  if (!up.ok) throw new Error(`sign-up failed: ${up.status} ${await up.text()}`);
  // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const cards = (await (await fetch(`${url}/api/cards?pack=pikachu&limit=20`)).json()) as { cards: { id: string }[] };
  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${url}/api/admin/articles`, { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`article create failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { slug: string };
  };
  const categories = ["news", "maintenance", "event", "guide", "deck-recipe"];
  for (let i = 0; i < 40; i++) {
    await post({ title: `お知らせ ${i + 1}`, category: categories[i % categories.length], content: `短い記事 ${i + 1}。`, isPublic: true });
  }
  const content = longArticle(cards.cards.map((c) => c.id));
  const long = await post({ title: "Pikachu ex デッキ完全攻略", category: "guide", content, isPublic: true, keywords: "ピカチュウ, デッキ", metaDescription: "ピカチュウexデッキの組み方と立ち回り。" });
  console.log(`seeded 41 public articles; the long one has ${content.length} characters of text`);
  return long.slug;
}

const targets: BenchTarget[] = [{ label: "pglite", env: {}, open: () => Promise.reject(new Error("unused")), cleanup: async () => {} }];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);

const summary: string[] = [];
for (const target of targets) {
  const server = await startServer({ ...target.env, LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email });
  try {
    const slug = await seed(server);
    const cases: [string, string, Record<string, string>?][] = [
      // The lightest server-rendered page past the page cache: the floor of any SSR render here.
      ["SSR /terms, cache miss (floor)", "/terms", CACHE_MISS],
      ["SSR /articles", "/articles"],
      ["SSR /articles, cache miss", "/articles", CACHE_MISS],
      ["SSR article 10k chars", `/articles/${slug}`],
      ["SSR article 10k chars, cache miss", `/articles/${slug}`, CACHE_MISS],
      ["GET /api/articles", "/api/articles"],
    ];
    for (const [, path, headers] of cases) await measure("warm-up", `${server.url}${path}`, { duration: 1, connections: 4, headers });
    const rows: Measurement[] = [];
    const healthz = await measure(`/healthz (${target.label})`, `${server.url}/healthz`, opts);
    rows.push(healthz);
    for (const [name, path, headers] of cases) rows.push(await measure(`${name} (${target.label})`, `${server.url}${path}`, { ...opts, headers }));
    printTable(`[server mode: ${server.mode}] Articles benchmark on ${target.label} — ${connections} connections, ${duration} s per case, ratios vs /healthz`, rows, healthz);
    for (const row of rows.slice(1)) summary.push(`${row.name}: ${(row.rps / healthz.rps).toFixed(2)}× /healthz req/s, p99 ${row.p99.toFixed(1)} ms`);
    const miss = rows.find((r) => r.name.startsWith("SSR article 10k chars, cache miss"))!;
    const ratio = miss.rps / healthz.rps;
    const floor = rows.find((r) => r.name.startsWith("SSR /terms"))!;
    summary.push(`aim (${target.label}): cache-miss article page ${ratio.toFixed(2)}× /healthz — ${ratio >= AIM ? "met" : "NOT met"} (aim ≥ ${AIM}×); ${(miss.rps / floor.rps).toFixed(2)}× the lightest SSR page (/terms, cache miss)`);
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

console.log("\nSummary");
for (const line of summary) console.log(`- ${line}`);
