// What a page makes the browser download as JavaScript on its first load: every script response
// Chromium fetches until the network is idle, each gzipped (level 9, as compression serves it
// near enough), summed. Anonymous visitors against a signed-in user on the same server, so the
// ratio shows what signing in adds. `npm run build` first; 127.0.0.1 only.
// Budget (decision 027, as revised by issue 41): the framework's own share — what `/terms`, the
// lightest page, loads in the same context (React, React Router, the shell) — plus at most 30 KB
// gzip of ours per page, signed out and signed in; each line prints both parts. By default every
// public page kind (a card, an offer, an article and a deck made through the HTTP API first), the
// friend board and the signed-in pages are measured; pass a comma-separated list of paths to
// measure others. Each first load runs in a browser context of its own (an empty HTTP cache: a
// later page of one context took the shell's scripts from the memory cache unseen). BENCH_BUILDS
// (default "build") names build directories to measure one after the other, e.g. the code before
// a change beside the current one (`BENCH_BUILDS=build-before,build`): each page's own share is
// then printed as before → after. Exits 1 over budget (in the last build).
import { gzipSync } from "node:zlib";
import type { Browser, Response } from "playwright-core";
import { launchBrowser } from "#tests/support/browser.ts";
import { startServer } from "#tests/support/server.ts";
import { PAGES_ADMIN, seedPublicPages, signUp } from "./public-pages";

/** Our share on top of the framework's (the `/terms` first load of the same context). */
const OUR_SHARE_BUDGET = 30 * 1024;
const FRAMEWORK_PAGE = "/terms";

type Page = { path: string; label: string; anonymous: boolean };

/** Cookies for a new context: none (a visitor) or the signed-in user's session. */
type Visitor = { cookies: { name: string; value: string; domain: string; path: string }[] };

async function firstLoad(browser: Browser, visitor: Visitor, url: string): Promise<{ files: number; raw: number; gzip: number; names: string[] }> {
  const context = await browser.newContext();
  await context.addCookies(visitor.cookies);
  const page = await context.newPage();
  const scripts: Promise<{ name: string; raw: number; gzip: number }>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(
      res.body().then((body) => ({ name: new URL(res.url()).pathname.replace(/^\/assets\//, ""), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })),
    );
  };
  page.on("response", onResponse);
  let inFlight = 0;
  let lastActivity = Date.now();
  const started = () => {
    inFlight++;
    lastActivity = Date.now();
  };
  const ended = () => {
    inFlight--;
    lastActivity = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  await page.goto(url, { waitUntil: "networkidle" });
  // The first load ends at network idle after hydration: what the page fetches once it has
  // hydrated (the header's unread counts) belongs to it, but on a busy machine hydration can end
  // after the network was first idle. Hydrated: React has attached itself to the header.
  await page.waitForFunction(() => Object.keys(document.querySelector("header") ?? {}).some((key) => key.startsWith("__reactFiber$")), null, { timeout: 60_000 });
  // Its effects have run once the main thread is idle; then the network is idle again.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 10_000 })));
  lastActivity = Math.max(lastActivity, Date.now());
  while (inFlight > 0 || Date.now() - lastActivity < 500) await new Promise((resolve) => setTimeout(resolve, 100));
  // A script answered after that is not counted, and its body is not read from a page about to close.
  page.off("response", onResponse);
  const loaded = await Promise.all(scripts);
  await context.close();
  return {
    files: loaded.length,
    raw: loaded.reduce((s, f) => s + f.raw, 0),
    gzip: loaded.reduce((s, f) => s + f.gzip, 0),
    names: loaded.map((f) => `${f.name} ${(f.gzip / 1024).toFixed(1)}`),
  };
}

async function signedIn(baseUrl: string): Promise<Visitor> {
  const cookie = await signUp(baseUrl, { email: `first-load-${Date.now()}@example.com`, password: "first-load-bench-2026", name: "ベンチ" });
  const host = new URL(baseUrl).hostname;
  return { cookies: cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), domain: host, path: "/" })) };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Total, then ours (the total less the framework's share) against OUR_SHARE_BUDGET. */
function verdict(gzip: number, framework: number): string {
  const ours = gzip - framework;
  return `${kb(gzip).padStart(6)} = ${kb(framework)} + ${kb(ours).padStart(5)} ${ours <= OUR_SHARE_BUDGET ? "ok  " : "OVER"}`;
}

/** One build's figures: per page label, our share signed out (null when not measured) and signed in. */
type Ours = Map<string, { anonymous: number | null; signedIn: number }>;

async function measure(browser: Browser, build: string): Promise<{ ours: Ours; over: boolean }> {
  const server = await startServer({ LOG_LEVEL: "warn", ADMIN_EMAILS: PAGES_ADMIN.email, BUILD_DIR: build });
  const ours: Ours = new Map();
  let over = false;
  try {
    let pages: Page[];
    if (process.argv[2]) {
      pages = process.argv[2].split(",").map((path) => ({ path, label: path, anonymous: true }));
    } else {
      const seeded = await seedPublicPages(server);
      pages = [
        { path: "/", label: "/", anonymous: true },
        { path: "/login", label: "/login", anonymous: true },
        { path: "/signup", label: "/signup", anonymous: true },
        { path: "/cards", label: "/cards", anonymous: true },
        { path: `/cards/${seeded.cardId}`, label: "card page", anonymous: true },
        { path: "/trades", label: "/trades", anonymous: true },
        { path: `/trades/${seeded.offerId}`, label: "offer page", anonymous: true },
        { path: "/articles", label: "/articles", anonymous: true },
        { path: `/articles/${seeded.articleSlug}`, label: "article", anonymous: true },
        { path: "/deck-recipes", label: "/deck-recipes", anonymous: true },
        { path: `/deck-recipes/${seeded.deckSlug}`, label: "deck page", anonymous: true },
        { path: "/friends", label: "/friends", anonymous: true },
        // Signed-in only: an anonymous visitor is sent to /login.
        { path: "/profile", label: "/profile", anonymous: false },
        { path: "/notifications", label: "/notifications", anonymous: false },
        { path: "/collection", label: "/collection", anonymous: false },
        { path: "/collection/trades", label: "トレード候補", anonymous: false },
        { path: "/collection/packs", label: "どのパック", anonymous: false },
      ];
    }
    const anonymous: Visitor = { cookies: [] };
    const user = await signedIn(server.url);
    // The framework's share, per kind of visitor: the lightest page's first load.
    const frameworkAnonymous = (await firstLoad(browser, anonymous, `${server.url}${FRAMEWORK_PAGE}`)).gzip;
    const frameworkSignedIn = (await firstLoad(browser, user, `${server.url}${FRAMEWORK_PAGE}`)).gzip;
    console.log(`build ${build}/, server: ${server.url} (NODE_ENV=${server.mode}, PGlite); JS gzip (level 9) on first load: total = framework (${FRAMEWORK_PAGE}) + ours, ours within ${OUR_SHARE_BUDGET / 1024} KB`);
    console.log(`framework's share (${FRAMEWORK_PAGE}): ${kb(frameworkAnonymous)} KB signed out, ${kb(frameworkSignedIn)} KB signed in`);
    console.log("page           | signed out: total = framework + ours KB | signed in: total = framework + ours KB | anonymous / signed-in");
    for (const page of pages) {
      const a = page.anonymous ? await firstLoad(browser, anonymous, `${server.url}${page.path}`) : null;
      const s = await firstLoad(browser, user, `${server.url}${page.path}`);
      ours.set(page.label, { anonymous: a ? a.gzip - frameworkAnonymous : null, signedIn: s.gzip - frameworkSignedIn });
      if ((a && a.gzip - frameworkAnonymous > OUR_SHARE_BUDGET) || s.gzip - frameworkSignedIn > OUR_SHARE_BUDGET) over = true;
      console.log(
        `${page.label.padEnd(14)} | ${a ? `${verdict(a.gzip, frameworkAnonymous)}, ${String(a.files).padStart(2)} files` : "—".padEnd(38)} | ${verdict(s.gzip, frameworkSignedIn)}, ${String(s.files).padStart(2)} files | ${a ? (a.gzip / s.gzip).toFixed(2) : "—"}`,
      );
      if (process.env.VERBOSE) console.log(`  anonymous: ${a?.names.join(", ") ?? "—"}\n  signed in: ${s.names.join(", ")}`);
    }
  } finally {
    await server.stop();
  }
  return { ours, over };
}

const builds = (process.env.BENCH_BUILDS ?? "build").split(",").filter(Boolean);
const browser = await launchBrowser();
const results: Ours[] = [];
let over = false;
try {
  for (const build of builds) {
    const result = await measure(browser, build);
    results.push(result.ours);
    over = result.over;
  }
} finally {
  await browser.close();
}
if (results.length > 1) {
  // Each page's own share in every build, in the order of BENCH_BUILDS.
  const share = (v: number | null) => (v === null ? "—" : kb(v));
  console.log(`\nour share per page, KB gzip (${builds.join(" → ")}) | signed out | signed in`);
  for (const label of results[0].keys()) {
    const row = results.map((r) => r.get(label));
    console.log(`${label.padEnd(14)} | ${row.map((v) => share(v?.anonymous ?? null)).join(" → ").padEnd(20)} | ${row.map((v) => share(v?.signedIn ?? null)).join(" → ")}`);
  }
}
process.exit(over ? 1 : 0);
