// `npm run docs:screenshots`: a screenshot of each public page at 390 and 1280 px wide for
// docs/visual-language.md, taken in the system Chromium (CHROMIUM_PATH, default
// /usr/bin/chromium) against the built app (run `npm run build` first) on 127.0.0.1, with a fresh
// embedded database holding the catalogue and a few dozen generated offers. Each picture is the
// top of the page (at most MAX_HEIGHT CSS pixels), stored as a palette PNG under
// docs/screenshots/ (or SCREENSHOTS_DIR) and kept under ~150 KB. A public deck recipe is made for
// the deck page. The screenshots in the repository show the placeholders without the Pokémon
// artwork (© The Pokémon Company, never kept in the repository); SCREENSHOTS_ART=1 draws the
// artwork `npm run cards:art` installed, and is refused unless SCREENSHOTS_DIR is set elsewhere.
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import sharp from "sharp";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { hasCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { defaultArtworkFolder, loadSpeciesArt } from "#app/features/cards/species-art.server.ts";
import { createDeck } from "#app/features/decks/decks.server.ts";
import { DeckInputSchema } from "#app/features/decks/decks.schema.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import { startServer } from "#tests/support/server.ts";
import { seedTradeOffers } from "./seed-trades";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const REPO_SHOTS = path.resolve(import.meta.dirname, "../docs/screenshots");
const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? REPO_SHOTS);
const WITH_ART = process.env.SCREENSHOTS_ART === "1";
if (WITH_ART && OUT === REPO_SHOTS) {
  console.error("SCREENSHOTS_ART=1 needs SCREENSHOTS_DIR outside docs/screenshots: the repository keeps no Pokémon artwork");
  process.exit(2);
}
const MAX_HEIGHT = 1600;
const MAX_BYTES = 150 * 1024;
const WIDTHS = [
  { name: "390", viewport: { width: 390, height: 844 }, isMobile: true },
  { name: "1280", viewport: { width: 1280, height: 800 }, isMobile: false },
];

/** Palette PNG, fewer colours until it fits MAX_BYTES. */
async function compress(png: Buffer): Promise<Buffer> {
  let out = png;
  for (const colours of [128, 64, 32]) {
    out = await sharp(png).png({ palette: true, colours, compressionLevel: 9, effort: 10 }).toBuffer();
    if (out.length <= MAX_BYTES) break;
  }
  return out;
}

const dataDir = await mkdtemp(path.join(tmpdir(), "torepoke-screenshots-"));
process.env.DATA_DIR = dataDir;
const env = loadEnv();
registerFeatureLinks();
const database = await openConfiguredDatabase(env);
let deckSlug: string;
try {
  if (!(await hasCatalogue(database.db))) await seedCatalogue(database.db);
  await seedTradeOffers(database.db, { offers: 40, seed: 16 });
  // The Pokémon artwork in the placeholders: only when asked, and only outside the repository.
  if (WITH_ART) {
    const artwork = defaultArtworkFolder();
    if (!(await stat(artwork).then((s) => s.isDirectory(), () => false))) throw new Error("SCREENSHOTS_ART=1: run `npm run cards:art` first");
    await loadSpeciesArt(database.db, artwork, uploadStore(env));
  }
  // A typical 20-card recipe of the first set.
  const list: [string, number][] = [["A1-096", 2], ["A1-104", 2], ["A1-099", 2], ["A1-100", 2], ["A1-105", 2], ["A1-106", 2], ["A1-097", 2], ["A1-098", 2], ["A1-225", 2], ["A1-223", 2]];
  const input = DeckInputSchema.parse({
    name: "ピカチュウex・サンダーex",
    tier: 1,
    category: "deck-recipe",
    energyTypes: ["electric"],
    isPublic: true,
    description: "ピカチュウexとサンダーexで速攻を狙う雷デッキ。",
    cards: list.map(([cardId, count]) => ({ cardId, count })),
  });
  deckSlug = (await createDeck(database.db, uploadStore(env), null, input)).slug;
} finally {
  await database.close();
}

const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox"] });
try {
  await mkdir(OUT, { recursive: true });
  const probe = await browser.newPage();
  await probe.goto(`${server.url}/trades`);
  const offerHref = await probe.locator('a[href^="/trades/"]').evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? "").find((href) => /^\/trades\/[0-9a-f-]{36}$/.test(href)));
  await probe.goto(`${server.url}/cards?pack=dialga`);
  const cardHref = await probe.locator('a[href^="/cards/"]').first().getAttribute("href");
  await probe.close();
  if (!offerHref || !cardHref) throw new Error("no offer or card to photograph");
  const pages = [
    { name: "home", path: "/" },
    { name: "cards", path: "/cards" },
    { name: "card", path: cardHref },
    { name: "trades", path: "/trades" },
    { name: "offer", path: offerHref },
    { name: "deck", path: `/deck-recipes/${deckSlug}` },
    { name: "articles", path: "/articles" },
    { name: "deck-recipes", path: "/deck-recipes" },
    { name: "login", path: "/login" },
    { name: "terms", path: "/terms" },
  ];
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: width.viewport, isMobile: width.isMobile, deviceScaleFactor: 1, locale: "ja-JP" });
    const page = await context.newPage();
    for (const entry of pages) {
      await page.goto(server.url + entry.path, { waitUntil: "networkidle" });
      await page.evaluate(() => document.fonts.ready);
      const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight));
      const shot = await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width: width.viewport.width, height } });
      const file = path.join(OUT, `${entry.name}-${width.name}.png`);
      const png = await compress(shot);
      await writeFile(file, png);
      console.log(`${path.relative(process.cwd(), file)} ${entry.path} ${Math.round(png.length / 1024)} KB`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
