// What a page makes the browser download as JavaScript on its first load: every script response
// Chromium fetches until the network is idle, each gzipped (level 9, as compression serves it
// near enough), summed. Anonymous visitors against a signed-in user on the same server, so the
// ratio shows what signing in adds. `npm run build` first; 127.0.0.1 only.
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext } from "playwright-core";
import { launchBrowser } from "../tests/support/browser";
import { startServer } from "../tests/support/server";

const PAGES = (process.argv[2] ?? "/,/login,/signup,/cards,/trades").split(",");

async function firstLoad(context: BrowserContext, url: string): Promise<{ files: number; raw: number; gzip: number; names: string[] }> {
  const page = await context.newPage();
  const scripts: Promise<{ name: string; raw: number; gzip: number }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(
      res.body().then((body) => ({ name: new URL(res.url()).pathname.replace(/^\/assets\//, ""), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })),
    );
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const loaded = await Promise.all(scripts);
  await page.close();
  return {
    files: loaded.length,
    raw: loaded.reduce((s, f) => s + f.raw, 0),
    gzip: loaded.reduce((s, f) => s + f.gzip, 0),
    names: loaded.map((f) => `${f.name} ${(f.gzip / 1024).toFixed(1)}`),
  };
}

async function signedInContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const res = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: { email: `first-load-${Date.now()}@example.com`, password: "first-load-bench-2026", name: "ベンチ" },
    headers: { origin: baseUrl },
  });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()}`);
  return context;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const anonymous = await browser.newContext();
  const signedIn = await signedInContext(browser, server.url);
  console.log("page        | anonymous JS (gzip KB, files) | signed-in JS (gzip KB, files) | anonymous / signed-in");
  for (const path of PAGES) {
    const a = await firstLoad(anonymous, `${server.url}${path}`);
    const s = await firstLoad(signedIn, `${server.url}${path}`);
    console.log(
      `${path.padEnd(11)} | ${(a.gzip / 1024).toFixed(1).padStart(8)} KB, ${String(a.files).padStart(2)} files | ${(s.gzip / 1024).toFixed(1).padStart(8)} KB, ${String(s.files).padStart(2)} files | ${(a.gzip / s.gzip).toFixed(2)}`,
    );
    if (process.env.VERBOSE) console.log(`  anonymous: ${a.gzip} B gzip; signed in: ${s.gzip} B gzip`);
    if (process.env.VERBOSE) console.log(`  anonymous: ${a.names.join(", ")}\n  signed in: ${s.names.join(", ")}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
