// `npm run bench:content`: the content foundation's costs, each against a baseline measured in
// the same run (needs `npm run build`; 127.0.0.1 only; bounded by counts, not time):
// 1. uploading a 4000×3000 JPEG to the built server (production mode, PGlite): server time per
//    upload, p50/p99 over 20 uploads 2 at a time, and the server process's peak RSS — against a
//    tiny 64×64 PNG upload and /healthz;
// 2. formatting a 50 KB article with the one formatter (markdown-it + linkify + sanitize-html)
//    against plain markdown-it on the same text;
// 3. the whole sitemap (index + every part) at 100,000 open offers, streamed, on PGlite — time and
//    memory — against reading the same offer ids in one query.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import markdownIt from "markdown-it";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { formatContent } from "#app/features/content/format.ts";
import { SITEMAP_SOURCES, sitemapIndex, sitemapPart, SITEMAP_PART_SIZE } from "#app/features/seo/sitemap.server.ts";
import { startServer } from "#tests/support/server.ts";
import { createUser } from "#tests/support/factories.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The resident set of a process now, from /proc. */
function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}

/** Runs `fn` while sampling the process's RSS every 20 ms; the highest sample. */
async function peakRssDuring<T>(pid: number, fn: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** `total` calls of `call`, `concurrency` at a time; the latency of each. */
async function run(total: number, concurrency: number, call: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        latencies.push((await timed(call)).ms);
      }
    }),
  );
  return latencies;
}

async function uploads(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: "warn", ADMIN_EMAILS: "bench-admin@example.com" });
  try {
    const up = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ email: "bench-admin@example.com", password: "bench-password", name: "ベンチ" }),
    });
    // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
    await verifyAddressFromMail(server, "bench-admin@example.com");
    const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    // A photo-like 4000×3000 JPEG (noise does not compress, like a real photo) and a tiny PNG.
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg({ quality: 85 }).toBuffer();
    const tiny = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } }).png().toBuffer();
    const upload = (bytes: Buffer, name: string) => async () => {
      const body = new FormData();
      body.set("file", new File([new Uint8Array(bytes)], name, { type: "image/jpeg" }));
      const res = await fetch(`${server.url}/api/admin/uploads`, { method: "POST", headers: { origin: server.url, cookie }, body });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const healthz = async () => void (await (await fetch(`${server.url}/healthz`)).arrayBuffer());
    await run(4, 2, upload(tiny, "warm.png"));
    const pid = server.process.pid!;
    const before = rssOf(pid);
    const { value: health, peak: healthPeak } = await peakRssDuring(pid, () => run(20, 2, healthz));
    const { value: small, peak: smallPeak } = await peakRssDuring(pid, () => run(20, 2, upload(tiny, "tiny.png")));
    const { value: big, peak: bigPeak } = await peakRssDuring(pid, () => run(20, 2, upload(photo, "photo.jpg")));
    console.log(`\n## Upload (server NODE_ENV=production, PGlite, local store) — 20 requests, 2 at a time`);
    console.log(`photo: 4000×3000 JPEG, ${mb(photo.length)}; stored as WebP ≤1600 px wide`);
    console.log("| case | p50 | p99 | ratio p50 vs /healthz | ratio p50 vs tiny upload |");
    console.log("|---|---|---|---|---|");
    const row = (name: string, values: number[]) =>
      console.log(`| ${name} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 99))} | ${(percentile(values, 50) / percentile(health, 50)).toFixed(1)}× | ${(percentile(values, 50) / percentile(small, 50)).toFixed(1)}× |`);
    row("GET /healthz (baseline)", health);
    row("upload 64×64 PNG (baseline)", small);
    row("upload 4000×3000 JPEG", big);
    console.log(`server RSS (sampled every 20 ms): ${mb(before)} at rest; peak ${mb(healthPeak)} during /healthz, ${mb(smallPeak)} during tiny uploads, ${mb(bigPeak)} during the photos (+${mb(bigPeak - smallPeak)} over tiny uploads)`);
  } finally {
    await server.stop();
  }
}

function article(bytes: number): string {
  const paragraph = [
    "## 環境考察",
    "今回のパックではピカチュウexとゼブライカの組み合わせが**最強クラス**です。詳しくはhttps://example.com/news/2025/01を参照してください。",
    "[公式サイト](https://example.com/official)の発表によると、次のイベントは*来週*から始まります。",
    "[[card:A1-094]]",
    "- 雷エネルギーを加速する\n- サイドを先に取る\n- ミュウツーexに注意",
    "```\nデッキリスト: ピカチュウex x2, ゼブライカ x2\n```",
    "![デッキ画像](/uploads/images/1700000000000-abcdefghijkl.webp)",
  ].join("\n\n");
  let text = "";
  while (Buffer.byteLength(text) < bytes) text += `${paragraph}\n\n`;
  return text;
}

function formatting(): void {
  const text = article(50 * 1024);
  const plain = markdownIt();
  const refs = { cards: new Map([["A1-094", { id: "A1-094", name: "ピカチュウex", rarity: "◆◆◆◆", imageUrl: "" }]]) };
  for (let i = 0; i < 5; i++) {
    formatContent(text, refs);
    plain.render(text);
  }
  const measureRuns = (fn: () => void) => {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      fn();
      times.push(performance.now() - started);
    }
    return times;
  };
  const baseline = measureRuns(() => plain.render(text));
  const ours = measureRuns(() => formatContent(text, refs));
  console.log(`\n## Formatting a ${(Buffer.byteLength(text) / 1024).toFixed(0)} KB article (30 runs, in process)`);
  console.log("| case | p50 | p99 | ratio p50 |");
  console.log("|---|---|---|---|");
  console.log(`| plain markdown-it render (baseline) | ${ms(percentile(baseline, 50))} | ${ms(percentile(baseline, 99))} | 1.0× |`);
  console.log(`| formatContent (markdown-it + Japanese linkify + blocks + sanitize-html) | ${ms(percentile(ours, 50))} | ${ms(percentile(ours, 99))} | ${(percentile(ours, 50) / percentile(baseline, 50)).toFixed(1)}× |`);
}

async function sitemap(): Promise<void> {
  const OFFERS = 100_000;
  const database = await openDatabase({ kind: "pglite" });
  try {
    await migrateDatabase(database);
    await seedCatalogue(database.db);
    const owner = await createUser(database.db);
    await database.db.execute(sql`
      insert into trade_offers (owner_id, status, expires_at, bumped_at)
      select ${owner.id}, 'open', now() + interval '2 days', now() - (g || ' seconds')::interval from generate_series(1, ${OFFERS}) g`);
    const site = "https://torepoke.example";
    const sample = () => process.memoryUsage().rss;
    const measureRun = async (fn: () => Promise<number>) => {
      globalThis.gc?.();
      const start = sample();
      let peak = start;
      const timer = setInterval(() => (peak = Math.max(peak, sample())), 5);
      const { ms: took, value } = await timed(fn);
      clearInterval(timer);
      return { took, urls: value, extra: Math.max(0, Math.max(peak, sample()) - start) };
    };
    const drain = async (chunks: AsyncGenerator<string>) => {
      let bytes = 0;
      for await (const chunk of chunks) bytes += chunk.length;
      return bytes;
    };
    // Warm the card index and the query plans.
    await drain(sitemapIndex(database.db, site));
    const baseline = await measureRun(async () => {
      const rows = await database.db.execute(sql`select id, bumped_at, updated_at from trade_offers where status = 'open' and expires_at > now() order by bumped_at desc, id desc`);
      return ((rows as unknown as { rows: unknown[] }).rows ?? []).length;
    });
    const full = await measureRun(async () => {
      let urls = 0;
      await drain(sitemapIndex(database.db, site));
      for (const source of SITEMAP_SOURCES) {
        const parts = Math.ceil((await source.count(database.db)) / SITEMAP_PART_SIZE);
        for (let part = 0; part < parts; part++) {
          for await (const chunk of sitemapPart(database.db, site, { source, part })) urls += (chunk.match(/<url>/g) ?? []).length;
        }
      }
      return urls;
    });
    console.log(`\n## Sitemap at ${OFFERS.toLocaleString("en")} open offers (PGlite, in process)`);
    console.log("| case | time | URLs | RSS growth | ratio time |");
    console.log("|---|---|---|---|---|");
    console.log(`| one query of every open offer id (baseline) | ${ms(baseline.took)} | ${baseline.urls} rows | ${mb(baseline.extra)} | 1.0× |`);
    console.log(`| full sitemap: index + every part, streamed | ${ms(full.took)} | ${full.urls} | ${mb(full.extra)} | ${(full.took / baseline.took).toFixed(1)}× |`);
  } finally {
    await database.close();
  }
}

console.log(`bench:content — server mode: NODE_ENV=production (tests/support/server.ts); Node ${process.version}`);
await uploads();
formatting();
await sitemap();
