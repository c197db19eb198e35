// `npm run bench:share-images`: what a share image costs, against baselines measured in the same
// run (docs/decisions/021). Needs a build (`npm run build`); PGlite; 127.0.0.1 only; bounded.
// 1. Drawing a deck's share image (satori + sharp, in this process: p50/p99 and memory) against
//    rendering that deck's page on the built server (one request at a time, page cache bypassed).
// 2. Serving the cached image (upload store) against /healthz of the same server, with autocannon
//    for BENCH_SECONDS (default 5) at BENCH_CONNECTIONS (default 20).
import { DeckShareImage } from "#app/features/share/templates.server.tsx";
import { renderShareImage } from "#app/features/share/render.server.ts";
import { deckShareModel } from "#app/features/share/share.server.tsx";
import type { DeckDetail } from "#app/features/decks/types.ts";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { startServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { CACHE_MISS, measure, printTable } from "./support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ADMIN = { email: "bench-share@example.com", password: "bench-share-password-7", name: "ベンチ" };
// A real 20-card deck of the catalogue (10 names × 2), as bench:decks uses.
const CARDS = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function timed(rounds: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

// The catalogue is loaded here first, so the server's start is not the seed's (a busy machine).
const dataDir = await mkdtemp(path.join(tmpdir(), "torepoke-bench-share-"));
const database = await openConfiguredDatabase(loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
try {
  await seedCatalogue(database.db);
} finally {
  await database.close();
}
const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email });
try {
  const up = await fetch(`${server.url}/api/auth/sign-up/email`, { method: "POST", headers: { origin: server.url, "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  if (!up.ok) throw new Error(`sign-up answered ${up.status}`);
  // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const created = await fetch(`${server.url}/api/admin/decks`, {
    method: "POST",
    headers: { origin: server.url, cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "ベンチ用ピカチュウexデッキ", tier: 1, category: "deck-recipe", energyTypes: ["electric"], isPublic: true, slug: "bench-share", cards: CARDS }),
  });
  if (created.status !== 201) throw new Error(`deck save answered ${created.status}: ${await created.text()}`);
  const detail = (await (await fetch(`${server.url}/api/decks/bench-share`)).json()) as DeckDetail;

  // 1. Drawing (a new name each round: nothing is reused but the fonts, as for an edited deck).
  await renderShareImage(DeckShareImage({ model: deckShareModel(detail) }));
  if (global.gc) global.gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  const draw = await timed(ROUNDS, async (i) => {
    await renderShareImage(DeckShareImage({ model: deckShareModel({ ...detail, name: `${detail.name}${i}` }) }));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  });
  const after = process.memoryUsage();
  const pagePath = "/deck-recipes/bench-share";
  await timed(3, () => fetch(`${server.url}${pagePath}`, { headers: CACHE_MISS }).then((r) => r.text()));
  const page = await timed(ROUNDS, () => fetch(`${server.url}${pagePath}`, { headers: CACHE_MISS }).then((r) => r.text()));

  console.log(`\nDrawing a deck share image (in process, ${ROUNDS} rounds) vs rendering the deck page (server in ${server.mode} mode, page cache bypassed, one request at a time)`);
  console.log("case".padEnd(40), "p50 ms".padStart(8), "p99 ms".padStart(8), "mean ms".padStart(8), "× page p50".padStart(11));
  for (const [name, m] of [["deck page SSR (baseline)", page], ["deck share image, drawn", draw]] as const) {
    console.log(name.padEnd(40), m.p50.toFixed(1).padStart(8), m.p99.toFixed(1).padStart(8), m.mean.toFixed(1).padStart(8), (m.p50 / page.p50).toFixed(1).padStart(11));
  }
  console.log(`memory while drawing: RSS ${mb(before.rss)} → peak ${mb(peakRss)} → ${mb(after.rss)}; heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)}`);

  // 2. The cached image against /healthz.
  const html = await (await fetch(`${server.url}${pagePath}`)).text();
  const imageUrl = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  if (!imageUrl) throw new Error("the deck page has no og:image");
  const first = await fetch(imageUrl);
  if (first.status !== 200) throw new Error(`share image answered ${first.status}`);
  await first.arrayBuffer();
  for (const url of [`${server.url}/healthz`, imageUrl]) await measure("warm-up", url, { duration: 1, connections: 4 });
  const healthz = await measure("/healthz", `${server.url}/healthz`, { duration, connections });
  const cached = await measure("share image, cached", imageUrl, { duration, connections });
  printTable(`Cached share image vs /healthz (server in ${server.mode} mode, PGlite, ${connections} connections, ${duration} s each)`, [healthz, cached], healthz);
} finally {
  await server.stop();
}
