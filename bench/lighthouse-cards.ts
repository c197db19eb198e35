// `npm run audit:lighthouse-cards`: Lighthouse mobile performance of /cards and a card page with
// card art loaded through `cards:images` (run `npm run build` first). A fresh embedded database
// gets the catalogue, and the time-and-space pack's cards get generated pictures (noise, so
// their WebP files weigh what real art does), loaded through the one upload store. Chromium comes
// from the system (CHROME_PATH, default /usr/bin/chromium). Lighthouse's default mobile profile
// (simulated slow 4G and a 4× slower CPU); the figures mean most on a quiet machine.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { eq } from "drizzle-orm";
import lighthouse from "lighthouse";
import sharp from "sharp";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { cardPacks, cards } from "#app/db/schema/index.ts";
import { loadCardImages } from "#app/features/cards/card-images.server.ts";
import { hasCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { startServer } from "#tests/support/server.ts";

const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const PACK = "dialga";

const dataDir = await mkdtemp(path.join(tmpdir(), "torepoke-lh-cards-"));
process.env.DATA_DIR = dataDir;
let firstCard = "";
const env = loadEnv();
const database = await openConfiguredDatabase(env);
try {
  if (!(await hasCatalogue(database.db))) await seedCatalogue(database.db);
  const rows = await database.db
    .select({ id: cards.id, imageFile: cards.imageFile })
    .from(cards)
    .innerJoin(cardPacks, eq(cardPacks.cardId, cards.id))
    .where(eq(cardPacks.packId, PACK));
  const folder = path.join(dataDir, "art");
  await mkdir(folder, { recursive: true });
  for (const file of new Set(rows.map((r) => r.imageFile).filter((f): f is string => Boolean(f)))) {
    const art = await sharp({ create: { width: 367, height: 512, channels: 3, background: "#6b8fd6", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
      .blur(1.2)
      .png()
      .toBuffer();
    await writeFile(path.join(folder, file), art);
  }
  const summary = await loadCardImages(database.db, folder, uploadStore(env));
  console.log(`card art: found ${summary.found}, stored ${summary.stored}, failed ${summary.failed}`);
  firstCard = rows[0]?.id ?? "";
} finally {
  await database.close();
}

const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
try {
  console.log(`server: ${server.url} (NODE_ENV=${server.mode}, PGlite), Chromium ${CHROME_PATH}, Lighthouse mobile defaults`);
  console.log("| page | performance | LCP | CLS | TBT | FCP |");
  console.log("|---|---|---|---|---|---|");
  for (const pathname of [`/cards?pack=${PACK}`, `/cards/${encodeURIComponent(firstCard)}`]) {
    const result = await lighthouse(server.url + pathname, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error(`no result for ${pathname}`);
    const { categories, audits } = result.lhr;
    const shown = (id: string) => audits[id]?.displayValue ?? "?";
    console.log(
      `| ${pathname} | ${Math.round((categories.performance?.score ?? 0) * 100)} | ${shown("largest-contentful-paint")} | ${shown("cumulative-layout-shift")} | ${shown("total-blocking-time")} | ${shown("first-contentful-paint")} |`,
    );
  }
} finally {
  chrome.kill();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
