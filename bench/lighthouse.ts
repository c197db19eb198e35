// `npm run audit:lighthouse`: Lighthouse SEO and Best Practices of every public page, offline,
// against the built server on 127.0.0.1 (run `npm run build` first). Chromium comes from the
// system (CHROME_PATH, default /usr/bin/chromium). Prints each page's scores and the audits that
// did not pass; exits 1 when an indexable page scores below 100 in either category.
import { randomBytes } from "node:crypto";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServer } from "../tests/support/server";

const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

async function json(url: string, init: RequestInit & { cookie?: string } = {}): Promise<{ status: number; body: unknown; cookie: string | null }> {
  const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...(init.cookie ? { cookie: init.cookie } : {}) } });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))?.split(";")[0] ?? null;
  return { status: res.status, body: await res.json().catch(() => null), cookie };
}

/** An open offer for the offer page (sign up, friend ID, post), through the public HTTP API. */
async function createOffer(base: string): Promise<{ offerId: string; cardId: string }> {
  const headers = { "content-type": "application/json", origin: base };
  const up = await json(`${base}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify({ email: `lh-${randomBytes(4).toString("hex")}@example.com`, password: "lighthouse-pass-1", name: "監査" }) });
  const cookie = up.cookie ?? "";
  await fetch(`${base}/profile`, { method: "POST", headers: { origin: base, cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ displayName: "監査", friendId: "1234567890123456" }), redirect: "manual" });
  const cards = (await json(`${base}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`)).body as { cards: { id: string }[] };
  const [give, want] = cards.cards;
  const offer = await json(`${base}/api/trades`, { method: "POST", headers, cookie, body: JSON.stringify({ give: [{ cardId: give.id, count: 1 }], want: [{ cardId: want.id, count: 1 }], comment: "監査用の募集です" }) });
  if (offer.status !== 201) throw new Error(`could not post an offer: ${offer.status} ${JSON.stringify(offer.body)}`);
  return { offerId: (offer.body as { id: string }).id, cardId: give.id };
}

const server = await startServer({ LOG_LEVEL: "warn" });
const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
let failed = false;
try {
  const { offerId, cardId } = await createOffer(server.url);
  // Indexable public pages must score 100; the others are noindex on purpose (SEO's "is-crawlable"
  // fails there by design) and are listed for their Best Practices score.
  const pages: { path: string; indexable: boolean }[] = [
    { path: "/", indexable: true },
    { path: "/cards", indexable: true },
    { path: `/cards/${cardId}`, indexable: true },
    { path: "/trades", indexable: true },
    { path: `/trades/${offerId}`, indexable: true },
    { path: "/privacy-policy", indexable: true },
    { path: "/terms", indexable: true },
    { path: "/articles", indexable: false },
    { path: "/deck-recipes", indexable: false },
    { path: "/login", indexable: false },
    { path: "/signup", indexable: false },
  ];
  console.log(`server: ${server.url} (NODE_ENV=production, PGlite), Chromium ${CHROME_PATH}`);
  console.log("| page | SEO | Best Practices | not passed |");
  console.log("|---|---|---|---|");
  for (const page of pages) {
    const result = await lighthouse(server.url + page.path, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["seo", "best-practices"], formFactor: "desktop", screenEmulation: { disabled: true } });
    if (!result) throw new Error(`no result for ${page.path}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const notPassed = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 1 && (a.scoreDisplayMode === "binary" || a.scoreDisplayMode === "numeric"))
      .filter((a) => categories.seo.auditRefs.some((r) => r.id === a.id && r.weight > 0) || categories["best-practices"].auditRefs.some((r) => r.id === a.id && r.weight > 0))
      .map((a) => a.id);
    console.log(`| ${page.path.replace(offerId, "{offer}").replace(cardId, "{card}")}${page.indexable ? "" : " (noindex)"} | ${score("seo")} | ${score("best-practices")} | ${notPassed.join(", ") || "—"} |`);
    if (score("best-practices") < 100 || (page.indexable && score("seo") < 100)) failed = true;
  }
} finally {
  chrome.kill();
  await server.stop();
}
process.exit(failed ? 1 : 0);
