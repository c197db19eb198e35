// The memory cases of `npm run bench:analytics` (BENCH_PART=memory runs them alone). The server is
// the production build started with the node flags of `npm start`; each case starts its own, and
// the idle server's RSS after start is that case's baseline.
//
// a. PGlite, the default database, which lives inside the server's process: a flood of
//    maximum-size hits (the longest path, UTM values and referrer the endpoint accepts, see
//    maxSizeHit) as fast as the connections send them; then the server idles and its RSS is read
//    again. Peak and settled RSS are printed against the baseline, with the JavaScript heap and the
//    external memory (PGlite's WebAssembly memory and Node's buffers) from the metrics port beside them.
// b. PostgreSQL (skipped when none answers), the buffer's worst case: the same flood while a
//    transaction holds a lock on analytics_events, so no batch is written and every hit stays in
//    memory until the buffer is full; then the lock goes and the buffer is written.
// Bounded: BENCH_FLOOD_HITS (default 150,000) and BENCH_FLOOD_SECONDS (default 60) per flood,
// BENCH_STALL_SECONDS (default 30) for the lock, BENCH_SETTLE_SECONDS (default 20) after each;
// 127.0.0.1 only.
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { startServer } from "#tests/support/server.ts";
import { postgresTarget } from "./support";

const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const COLLECT_MAX_BYTES = 4096;

/**
 * The hit that costs the server the most memory per row, within the endpoint's 4 KB body and the
 * schema's 2,000 characters of `u`: a page path of Japanese characters (the URL parser
 * percent-encodes each into nine), three UTM values of 100 emoji (the most a value keeps) and a
 * 200-character referrer host (the most a row keeps).
 */
export function maxSizeHit(): string {
  const utm = (name: string) => `${name}=${"😀".repeat(100)}`;
  const query = `?${utm("utm_source")}&${utm("utm_medium")}&${utm("utm_campaign")}`;
  const hit = (pathChars: number) => JSON.stringify({ t: "pv", u: `/cards/${"あ".repeat(pathChars)}${query}`, r: `https://${"r".repeat(196)}.com/`, w: 1280 });
  let pathChars = 0;
  while (Buffer.byteLength(hit(pathChars + 1)) <= COLLECT_MAX_BYTES) pathChars++;
  return hit(pathChars);
}

type Figures = { rssMb: number; anonMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; buffered: number; bufferedMb: number; written: number; dropped: number };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hits = Number(process.env.BENCH_FLOOD_HITS ?? 150_000);
const floodSeconds = Number(process.env.BENCH_FLOOD_SECONDS ?? 60);
const stallSeconds = Number(process.env.BENCH_STALL_SECONDS ?? 30);
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 20);
const connections = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 32);

export async function analyticsMemory(): Promise<void> {
  const body = maxSizeHit();
  console.log(
    `analytics memory — up to ${hits.toLocaleString("en")} maximum-size hits (${Buffer.byteLength(body)} bytes each) at ${connections} connections per flood, ${settleSeconds} s idle after; server: production build, node flags of npm start`,
  );
  await floodCase({ label: "a. PGlite, flood", env: { DATABASE_URL: "" }, body, seconds: floodSeconds });

  const target = await postgresTarget();
  if (!target) return console.log("b. skipped: PostgreSQL does not answer");
  try {
    let holder: pg.Client | null = null;
    await floodCase({
      label: `b. PostgreSQL, flood while analytics_events is locked for ${stallSeconds} s`,
      env: target.env,
      body,
      seconds: stallSeconds,
      // Blocks every INSERT of the buffer (ROW EXCLUSIVE waits for SHARE) until the flood ends.
      beforeFlood: async () => {
        holder = new pg.Client({ connectionString: target.env.DATABASE_URL });
        await holder.connect();
        await holder.query("begin");
        await holder.query("lock table analytics_events in share mode");
      },
      afterFlood: async () => {
        await holder?.query("commit");
        await holder?.end();
      },
    });
  } finally {
    await target.cleanup();
  }
}

async function floodCase(options: { label: string; env: Record<string, string>; body: string; seconds: number; beforeFlood?: () => Promise<void>; afterFlood?: () => Promise<void> }): Promise<void> {
  const metricsPort = 20_000 + Math.floor(Math.random() * 20_000);
  const env: Record<string, string> = { ...options.env, LOG_LEVEL: "warn", ANALYTICS_RATE_LIMIT: "1000000", METRICS_PORT: String(metricsPort) };
  if (process.env.BENCH_BUFFER_MAX) env.ANALYTICS_BUFFER_MAX = process.env.BENCH_BUFFER_MAX;
  const server = await startServer(env);
  const pid = server.process.pid!;
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
  const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? NaN);
  const figures = async (): Promise<Figures> => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const mb = (name: string) => metric(text, name) / 1024 / 1024;
    return {
      rssMb: kb("VmRSS"),
      anonMb: kb("RssAnon"),
      heapUsedMb: mb("nodejs_heap_size_used_bytes"),
      heapTotalMb: mb("nodejs_heap_size_total_bytes"),
      externalMb: mb("nodejs_external_memory_bytes"),
      buffered: metric(text, "analytics_buffered_rows"),
      // Not every build has it: the buffer's own count of what it holds.
      bufferedMb: mb("analytics_buffered_bytes"),
      written: metric(text, "analytics_written_rows_total"),
      dropped: metric(text, "analytics_dropped_rows_total"),
    };
  };
  const exited = () => server.process.exitCode !== null || server.process.signalCode !== null;
  try {
    // Start-up's partitions are made (the maintenance the server runs at once) and its garbage collected.
    await pause(3000);
    const idle = await figures();
    // The kernel's high-water mark from here on: start-up (PGlite's initdb, the migrations) is not the flood's.
    writeFileSync(`/proc/${pid}/clear_refs`, "5");

    // The metrics are read once a second while the flood runs and the buffer is written; the reading at the highest RSS is kept.
    let peak = idle;
    let mostBuffered = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling && !exited()) {
        const now = await figures().catch(() => null);
        if (now && now.rssMb > peak.rssMb) peak = now;
        if (now && now.buffered > mostBuffered.buffered) mostBuffered = now;
        await pause(1000);
      }
    })();
    await options.beforeFlood?.();
    const floodStarted = performance.now();
    const flood = await autocannon({
      url: `${server.url}/api/event`,
      method: "POST",
      body: options.body,
      headers: { origin: server.url, "content-type": "text/plain", "user-agent": UA, "accept-language": "ja" },
      connections,
      maxOverallRequests: hits,
      duration: options.seconds,
    });
    const floodS = (performance.now() - floodStarted) / 1000;
    await options.afterFlood?.();
    const floodLine = `flood: ${flood["2xx"]} answered 204, ${flood.non2xx} refused, ${flood.errors + flood.timeouts} errors in ${floodS.toFixed(0)} s`;
    if (exited()) {
      sampling = false;
      await sampler;
      console.log(`\n${options.label}: the server exited during the flood (${server.process.exitCode ?? server.process.signalCode}); idle ${idle.rssMb.toFixed(0)} MB, highest RSS read ${peak.rssMb.toFixed(0)} MB, ${mostBuffered.buffered} rows buffered at most`);
      console.log(floodLine);
      console.log(`  its last words: ${server.logs.join("").trim().split("\n").filter((l) => /heap|memory|FATAL/i.test(l)).slice(-2).join(" / ") || "—"}`);
      return;
    }
    // Written when the buffer is empty and the counts stop moving.
    let last = await figures();
    for (let stable = 0; stable < 3; ) {
      await pause(1000);
      const now = await figures();
      stable = now.buffered === 0 && now.written === last.written && now.dropped === last.dropped ? stable + 1 : 0;
      last = now;
    }
    sampling = false;
    await sampler;
    const highWater = kb("VmHWM");
    await pause(settleSeconds * 1000);
    const settled = await figures();

    const row = (name: string, f: Figures, rssMb = f.rssMb) =>
      console.log(
        name.padEnd(44),
        rssMb.toFixed(0).padStart(7),
        (rssMb / idle.rssMb).toFixed(2).padStart(7),
        f.anonMb.toFixed(0).padStart(8),
        f.heapUsedMb.toFixed(0).padStart(10),
        f.heapTotalMb.toFixed(0).padStart(11),
        f.externalMb.toFixed(0).padStart(12),
        String(f.buffered).padStart(9),
        (Number.isNaN(f.bufferedMb) ? "—" : f.bufferedMb.toFixed(1)).padStart(12),
      );
    console.log(`\n${options.label}`);
    console.log("point".padEnd(44), "RSS MB".padStart(7), "× idle".padStart(7), "anon MB".padStart(8), "heap used".padStart(10), "heap total".padStart(11), "external MB".padStart(12), "buffered".padStart(9), "buffered MB".padStart(12));
    row("idle after start (baseline)", idle);
    row("peak during the flood and its writes (VmHWM)", peak, highWater);
    row("  highest RSS read with the metrics", peak);
    if (mostBuffered !== idle && mostBuffered !== peak) row("  most rows buffered", mostBuffered);
    row(`settled (${settleSeconds} s after the buffer was written)`, settled);
    console.log(`${floodLine}; rows written ${settled.written}, dropped ${settled.dropped}`);
  } finally {
    await server.stop();
  }
}
