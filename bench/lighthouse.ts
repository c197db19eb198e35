// `npm run audit:lighthouse`: Lighthouse SEO and Best Practices of every public page, offline,
// against the built server on 127.0.0.1 (run `npm run build` first), then mobile performance
// (Lighthouse's default mobile profile: simulated slow 4G, a 4× slower CPU) of the pages people
// land on, each the median of LIGHTHOUSE_RUNS (default 3) runs, after /terms of the same run as the
// baseline (the lightest server-rendered page). Chromium comes from the system (CHROME_PATH, default /usr/bin/chromium). When the
// artwork package of `npm run cards:art` is installed, the cards show that artwork (as the
// site does once an operator has run it); otherwise they show their placeholders, and it says so.
// Prints each page's scores and the audits that did not pass; exits 1 when an indexable page
// scores below 100 in SEO or Best Practices, or a landing page below 95 in performance.
import { stat, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { hasCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { defaultArtworkFolder, loadSpeciesArt } from "#app/features/cards/species-art.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { startServer } from "#tests/support/server.ts";
import { PAGES_ADMIN, seedPublicPages } from "./public-pages";

const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

const PERFORMANCE_AIM = 95;
/**
 * Lighthouse runs per page for the performance score, of which the median run is shown (the score
 * of one run moves by several points from run to run on the same build, mostly through Total
 * Blocking Time; Lighthouse's own advice is the median of several runs).
 */
const PERFORMANCE_RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
/**
 * LIGHTHOUSE_PAGES: a comma-separated list of landing pages ("/", "/cards", "card", "/trades",
 * "/articles", "article", "/deck-recipes", "deck") to measure for performance, without the SEO and
 * Best Practices pass; by default every landing page and that pass.
 */
const ONLY_PAGES = process.env.LIGHTHOUSE_PAGES?.split(",").map((p) => p.trim()).filter(Boolean);

/** The card artwork of `npm run cards:art` in a fresh data folder, when its package is installed. */
async function dataDirWithArt(): Promise<{ dataDir: string; art: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "torepoke-lh-"));
  const folder = defaultArtworkFolder();
  if (!(await stat(folder).then((s) => s.isDirectory(), () => false))) return { dataDir, art: "placeholders (the artwork package of `npm run cards:art` is not installed)" };
  process.env.DATA_DIR = dataDir;
  const env = loadEnv();
  const database = await openConfiguredDatabase(env);
  try {
    if (!(await hasCatalogue(database.db))) await seedCatalogue(database.db);
    const summary = await loadSpeciesArt(database.db, folder, uploadStore(env));
    return { dataDir, art: `Pokémon artwork of \`npm run cards:art\` (${summary.cards} cards)` };
  } finally {
    await database.close();
  }
}

const { dataDir, art } = await dataDirWithArt();
const server = await startServer({ LOG_LEVEL: "warn", DATA_DIR: dataDir, ADMIN_EMAILS: PAGES_ADMIN.email });
const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
let failed = false;
try {
  const { offerId, cardId, articleSlug, deckSlug } = await seedPublicPages(server);
  const names: Record<string, string> = { [offerId]: "{offer}", [cardId]: "{card}", [articleSlug]: "{article}", [deckSlug]: "{deck}" };
  const shortPath = (p: string) => p.split("/").map((segment) => names[segment] ?? segment).join("/");
  // Indexable public pages must score 100; the others are noindex on purpose (SEO's "is-crawlable"
  // fails there by design) and are listed for their Best Practices score.
  const pages: { path: string; indexable: boolean }[] = [
    { path: "/", indexable: true },
    { path: "/cards", indexable: true },
    { path: `/cards/${cardId}`, indexable: true },
    { path: "/trades", indexable: true },
    { path: `/trades/${offerId}`, indexable: true },
    { path: "/friends", indexable: true },
    { path: "/trade-rules", indexable: true },
    { path: "/privacy-policy", indexable: true },
    { path: "/terms", indexable: true },
    { path: "/articles", indexable: false },
    { path: "/deck-recipes", indexable: false },
    { path: "/login", indexable: false },
    { path: "/signup", indexable: false },
  ];
  console.log(`server: ${server.url} (NODE_ENV=${server.mode}, PGlite), Chromium ${CHROME_PATH}; cards show ${art}`);
  console.log("| page | SEO | Best Practices | not passed |");
  console.log("|---|---|---|---|");
  for (const page of ONLY_PAGES ? [] : pages) {
    const result = await lighthouse(server.url + page.path, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["seo", "best-practices"], formFactor: "desktop", screenEmulation: { disabled: true } });
    if (!result) throw new Error(`no result for ${page.path}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const notPassed = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 1 && (a.scoreDisplayMode === "binary" || a.scoreDisplayMode === "numeric"))
      .filter((a) => categories.seo.auditRefs.some((r) => r.id === a.id && r.weight > 0) || categories["best-practices"].auditRefs.some((r) => r.id === a.id && r.weight > 0))
      .map((a) => a.id);
    console.log(`| ${shortPath(page.path)}${page.indexable ? "" : " (noindex)"} | ${score("seo")} | ${score("best-practices")} | ${notPassed.join(", ") || "—"} |`);
    if (score("best-practices") < 100 || (page.indexable && score("seo") < 100)) failed = true;
  }
  // The pages people land on, mobile (Lighthouse's defaults), each after one warm-up load so the
  // signed-out page cache answers as it does for every visitor but the first.
  console.log(`\n| page (mobile; the median of ${PERFORMANCE_RUNS} runs) | performance (every run) | LCP | TBT | CLS | FCP | SI |`);
  console.log("|---|---|---|---|---|---|---|");
  const landing: [string, string][] = [["/", "/"], ["/cards", "/cards"], ["card", `/cards/${cardId}`], ["/trades", "/trades"], ["offer", `/trades/${offerId}`], ["/friends", "/friends"], ["/articles", "/articles"], ["article", `/articles/${articleSlug}`], ["/deck-recipes", "/deck-recipes"], ["deck", `/deck-recipes/${deckSlug}`]];
  // The baseline of the same run, first: /terms, the lightest page rendered by the same server,
  // framework and stylesheet. The scores move with the machine (Lighthouse slows the measured CPU
  // by 4× whatever its speed), so a page is read against it.
  const measured: [string, string][] = [["baseline", "/terms"], ...landing.filter(([name]) => !ONLY_PAGES || ONLY_PAGES.includes(name))];
  for (const [name, pathname] of measured) {
    await fetch(server.url + pathname);
    const runs = [];
    for (let run = 0; run < PERFORMANCE_RUNS; run++) {
      const result = await lighthouse(server.url + pathname, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
      if (!result) throw new Error(`no result for ${pathname}`);
      runs.push({ lhr: result.lhr, score: Math.round((result.lhr.categories.performance?.score ?? 0) * 100) });
      if (process.env.VERBOSE) console.log(`    run ${run + 1}: benchmarkIndex ${result.lhr.environment.benchmarkIndex}, warnings: ${result.lhr.runWarnings.join(" / ") || "none"}`);
    }
    const ordered = [...runs].sort((x, y) => x.score - y.score);
    const { lhr, score } = ordered[Math.floor((ordered.length - 1) / 2)];
    const { audits } = lhr;
    const shown = (id: string) => audits[id]?.displayValue ?? "?";
    console.log(
      `| ${name === "baseline" ? "/terms (baseline, not a landing page)" : shortPath(pathname)} | ${score} (${runs.map((r) => r.score).join(", ")}) | ${shown("largest-contentful-paint")} | ${shown("total-blocking-time")} | ${shown("cumulative-layout-shift")} | ${shown("first-contentful-paint")} | ${shown("speed-index")} |`,
    );
    if (process.env.VERBOSE) {
      const weak = Object.values(audits).filter((a) => a.score !== null && a.score < 0.9 && a.details?.type === "opportunity" || (a.id === "render-blocking-insight" || a.id === "lcp-breakdown-insight"));
      for (const a of weak) console.log(`    ${a.id}: ${a.displayValue ?? ""}`);
      // The element the page's LCP is, and the phases of its time.
      const lcpElement = JSON.stringify(audits["largest-contentful-paint-element"]?.details ?? audits["lcp-breakdown-insight"]?.details ?? {});
      console.log(`    LCP element and phases: ${lcpElement.slice(0, 1500)}`);
      // Where the main thread's time went (as measured, before the 4× slowdown is simulated),
      // the scripts that took it, and the long tasks that make up the blocking time.
      type Item = Record<string, unknown>;
      const items = (id: string) => ((audits[id]?.details as { items?: Item[] } | undefined)?.items ?? []);
      const ms = (v: unknown) => `${Math.round(Number(v))} ms`;
      console.log(`    main thread: ${items("mainthread-work-breakdown").map((i) => `${String(i.groupLabel)} ${ms(i.duration)}`).join(", ")}`);
      console.log(`    scripts: ${items("bootup-time").map((i) => `${String(i.url).replace(server.url, "")} ${ms(i.total)} (evaluation ${ms(i.scripting)}, parse ${ms(i.scriptParseCompile)})`).join(", ")}`);
      console.log(`    long tasks: ${items("long-tasks").map((i) => `${String(i.url).replace(server.url, "")} at ${ms(i.startTime)} for ${ms(i.duration)}`).join(", ")}`);
    }
    if (name !== "baseline" && score < PERFORMANCE_AIM) failed = true;
  }
} finally {
  chrome.kill();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
