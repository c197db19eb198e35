// `npm run bench:uploads`: what image uploads cost the pages. 16 administrators' uploads of a
// 20-megapixel JPEG start at once while autocannon reads /articles signed out (rendered every
// time: the page-cache bypass cookie); the p99 of /articles is compared with its p99 on the same
// server idle, measured first in the same run, and the server's peak RSS is sampled throughout.
// The server runs as `npm start` runs it (the V8 heap sizes of its node flags). PostgreSQL when
// DATABASE_URL is set (use a fresh database per run: the bench signs up its admin), else PGlite.
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per phase, 127.0.0.1 only.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { startServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { CACHE_MISS, measure, printTable } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const UPLOADS = 16;
const ADMIN = { email: "bench-uploads@example.com", password: "bench-uploads-password", name: "ベンチ管理者" };

// 5472×3648 ≈ 20 MP, as a phone camera takes it; light noise keeps it a realistic few MB.
const photo = await sharp({ create: { width: 5472, height: 3648, channels: 3, background: { r: 90, g: 140, b: 200 }, noise: { type: "gaussian", mean: 120, sigma: 12 } } })
  .jpeg({ quality: 80 })
  .toBuffer();

const server = await startServer({ LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email });
const rssMb = () => {
  const line = readFileSync(`/proc/${server.process.pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : 0;
};
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 50);
try {
  const up = await fetch(`${server.url}/api/auth/sign-up/email`, { method: "POST", headers: { origin: server.url, "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  if (up.status !== 200) throw new Error(`sign-up answered ${up.status}`);
  // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const page = `${server.url}/articles`;
  await measure("warm-up", page, { duration: 2, connections: 4, headers: CACHE_MISS });
  const startRss = rssMb();
  peakRss = 0;
  const idle = await measure("GET /articles signed out, idle", page, { duration, connections, headers: CACHE_MISS });
  // The same page load without uploads: what rendering alone takes, to set the uploads' share apart.
  const idlePeakRss = peakRss;

  const upload = async () => {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(photo)], "photo.jpg", { type: "image/jpeg" }));
    const started = performance.now();
    const res = await fetch(`${server.url}/api/admin/uploads`, { method: "POST", headers: { origin: server.url, cookie }, body: form });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  peakRss = 0;
  const [busy, answers] = await Promise.all([
    measure(`GET /articles signed out, ${UPLOADS} uploads of 20 MP running`, page, { duration, connections, headers: CACHE_MISS }),
    Promise.all(Array.from({ length: UPLOADS }, upload)),
  ]);
  const count = (status: number) => answers.filter((a) => a.status === status).length;
  printTable(`[server mode: ${server.mode}] Uploads under load — ${connections} connections, ${duration} s per phase`, [idle, busy], idle);
  console.log(`photo: ${(photo.length / 1024 / 1024).toFixed(1)} MB JPEG, 5472×3648`);
  console.log(`uploads: ${count(201)} stored, ${count(503)} refused busy (503), ${count(429)} rate-limited (429), other: ${answers.filter((a) => ![201, 503, 429].includes(a.status)).map((a) => a.status).join(",") || "none"}; slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms`);
  console.log(`p99 /articles: idle ${idle.p99} ms, during uploads ${busy.p99} ms (${(busy.p99 / Math.max(idle.p99, 1)).toFixed(2)}× idle)`);
  console.log(`server RSS: after warm-up ${startRss.toFixed(0)} MB, peak while /articles is read idle ${idlePeakRss.toFixed(0)} MB, peak during uploads ${peakRss.toFixed(0)} MB (goal < 600 MB)`);
  console.log(`database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite (embedded)"}`);
} finally {
  clearInterval(sampler);
  await server.stop();
}
