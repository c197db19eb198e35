// What a page makes the browser download as JavaScript on its first load: every script response
// Chromium fetches until the network is idle, each gzipped (level 9, as compression serves it
// near enough), summed. Anonymous visitors against a signed-in user on the same server, so the
// ratio shows what signing in adds. `npm run build` first; 127.0.0.1 only.
// Budget (decision 027, as revised by issue 41): the framework's own share — what `/terms`, the
// lightest page, loads in the same context (React, React Router, the shell) — plus at most 30 KB
// gzip of ours per page, signed out and signed in; each line prints both parts. By default every
// public page kind (a card, an offer, an article and a deck made through the HTTP API first), the
// friend board and the signed-in pages are measured; pass a comma-separated list of paths to
// measure others. Exits 1 over budget.
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Response } from "playwright-core";
import { launchBrowser } from "../tests/support/browser";
import { startServer } from "../tests/support/server";
import { PAGES_ADMIN, seedPublicPages, signUp } from "./public-pages";

/** Our share on top of the framework's (the `/terms` first load of the same context). */
const OUR_SHARE_BUDGET = 30 * 1024;
const FRAMEWORK_PAGE = "/terms";

type Page = { path: string; label: string; anonymous: boolean };

async function firstLoad(context: BrowserContext, url: string): Promise<{ files: number; raw: number; gzip: number; names: string[] }> {
  const page = await context.newPage();
  const scripts: Promise<{ name: string; raw: number; gzip: number }>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(
      res.body().then((body) => ({ name: new URL(res.url()).pathname.replace(/^\/assets\//, ""), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })),
    );
  };
  page.on("response", onResponse);
  await page.goto(url, { waitUntil: "networkidle" });
  // The first load ends at network idle: a script answered after it is not counted, and its body
  // is not read from a page about to close.
  page.off("response", onResponse);
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
  const cookie = await signUp(baseUrl, { email: `first-load-${Date.now()}@example.com`, password: "first-load-bench-2026", name: "ベンチ" });
  const context = await browser.newContext();
  const host = new URL(baseUrl).hostname;
  await context.addCookies(cookie.split("; ").map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), domain: host, path: "/" })));
  return context;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Total, then ours (the total less the framework's share) against OUR_SHARE_BUDGET. */
function verdict(gzip: number, framework: number): string {
  const ours = gzip - framework;
  return `${kb(gzip).padStart(6)} = ${kb(framework)} + ${kb(ours).padStart(5)} ${ours <= OUR_SHARE_BUDGET ? "ok  " : "OVER"}`;
}

const server = await startServer({ LOG_LEVEL: "warn", ADMIN_EMAILS: PAGES_ADMIN.email });
const browser = await launchBrowser();
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
  const anonymous = await browser.newContext();
  const signedIn = await signedInContext(browser, server.url);
  // The framework's share, per context: the lightest page's first load (a fresh page each time,
  // so nothing is cached between the measurements).
  const frameworkAnonymous = (await firstLoad(anonymous, `${server.url}${FRAMEWORK_PAGE}`)).gzip;
  const frameworkSignedIn = (await firstLoad(signedIn, `${server.url}${FRAMEWORK_PAGE}`)).gzip;
  console.log(`server: ${server.url} (NODE_ENV=${server.mode}, PGlite); JS gzip (level 9) on first load: total = framework (${FRAMEWORK_PAGE}) + ours, ours within ${OUR_SHARE_BUDGET / 1024} KB`);
  console.log(`framework's share (${FRAMEWORK_PAGE}): ${kb(frameworkAnonymous)} KB signed out, ${kb(frameworkSignedIn)} KB signed in`);
  console.log("page           | signed out: total = framework + ours KB | signed in: total = framework + ours KB | anonymous / signed-in");
  for (const page of pages) {
    const a = page.anonymous ? await firstLoad(anonymous, `${server.url}${page.path}`) : null;
    const s = await firstLoad(signedIn, `${server.url}${page.path}`);
    if ((a && a.gzip - frameworkAnonymous > OUR_SHARE_BUDGET) || s.gzip - frameworkSignedIn > OUR_SHARE_BUDGET) over = true;
    console.log(
      `${page.label.padEnd(14)} | ${a ? `${verdict(a.gzip, frameworkAnonymous)}, ${String(a.files).padStart(2)} files` : "—".padEnd(38)} | ${verdict(s.gzip, frameworkSignedIn)}, ${String(s.files).padStart(2)} files | ${a ? (a.gzip / s.gzip).toFixed(2) : "—"}`,
    );
    if (process.env.VERBOSE) console.log(`  anonymous: ${a?.names.join(", ") ?? "—"}\n  signed in: ${s.names.join(", ")}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
process.exit(over ? 1 : 0);
