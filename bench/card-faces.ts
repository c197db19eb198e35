// `npm run bench:card-faces`: what drawing card blocks and card facts costs a page, against /terms
// measured in the same run (needs `npm run build`; the built server in production mode on PGlite;
// 127.0.0.1 only; bounded by counts). Pages: an article with CARD_BLOCKS card blocks (each drawn by
// the card face component), the same article without blocks, and a deck page of 15 Pokémon with
// their facts and a card block in its text.
import { performance } from "node:perf_hooks";
import { startServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";

const CARD_BLOCKS = Number(process.env.CARD_BLOCKS ?? 20);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = 4;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** `total` GETs of `url`, `concurrency` at a time; the latency of each (the whole body read). */
async function load(url: string, total: number, concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const started = performance.now();
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function main(): Promise<void> {
  const admin = "bench-admin@example.com";
  const server = await startServer({ LOG_LEVEL: "warn", ADMIN_EMAILS: admin });
  try {
    const up = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ email: admin, password: "bench-password", name: "ベンチ" }),
    });
    await verifyAddressFromMail(server, admin);
    const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const post = async (path: string, data: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { origin: server.url, cookie, "content-type": "application/json" }, body: JSON.stringify(data) });
      if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { slug: string };
    };
    // A1 001–CARD_BLOCKS: Pokémon and trainers of the first set, one block each between paragraphs.
    const ids = Array.from({ length: CARD_BLOCKS }, (_, i) => `A1-${String(i + 1).padStart(3, "0")}`);
    const paragraphs = ids.map((id, i) => `## ${i + 1}枚目\nこのカードは序盤に使います。\n[[card:${id}]]`);
    const withBlocks = await post("/api/admin/articles", { title: "カードブロックのベンチ", category: "guide", isPublic: true, content: paragraphs.join("\n\n") });
    const withoutBlocks = await post("/api/admin/articles", { title: "ブロックなしのベンチ", category: "guide", isPublic: true, content: paragraphs.map((p) => p.replace(/\n\[\[card:.*\]\]$/, "")).join("\n\n") });
    const deckCards = ["A1-001", "A1-002", "A1-003", "A1-004", "A1-033", "A1-034", "A1-035", "A1-036", "A1-053", "A1-054", "A1-055", "A1-056", "A1-094", "A1-095", "A1-096"];
    const deck = await post("/api/admin/decks", {
      name: "ベンチデッキ",
      tier: 1,
      category: "event",
      isPublic: true,
      publishIllegal: true,
      description: "## 回し方\n[[card:A1-055]]\nカメックスで攻撃します。",
      cards: deckCards.map((cardId) => ({ cardId, count: 1 })),
    });
    const pages = [
      { name: "/terms (baseline)", url: "/terms" },
      { name: "article, no card blocks", url: `/articles/${withoutBlocks.slug}` },
      { name: `article, ${CARD_BLOCKS} card blocks`, url: `/articles/${withBlocks.slug}` },
      { name: "deck page, 15 Pokémon with facts + 1 card block", url: `/deck-recipes/${deck.slug}` },
    ];
    // Warm: the built bundle, the card index, the caches.
    for (const page of pages) await load(`${server.url}${page.url}`, 20, 2);
    const results = [];
    for (const page of pages) results.push({ ...page, times: await load(`${server.url}${page.url}`, REQUESTS, CONCURRENCY) });
    const base = results[0]!.times;
    console.log(`\n## Card faces and facts (server NODE_ENV=production, PGlite) — ${REQUESTS} GETs each, ${CONCURRENCY} at a time`);
    console.log("| page | p50 | p99 | ratio p50 vs /terms | ratio p99 vs /terms |");
    console.log("|---|---|---|---|---|");
    for (const r of results) {
      console.log(`| ${r.name} | ${ms(percentile(r.times, 50))} | ${ms(percentile(r.times, 99))} | ${(percentile(r.times, 50) / percentile(base, 50)).toFixed(2)}× | ${(percentile(r.times, 99) / percentile(base, 99)).toFixed(2)}× |`);
    }
  } finally {
    await server.stop();
  }
}

await main();
