// `npm run cards:images -- <folder>`: loads the operator's card image files (named as in the
// catalogue, e.g. the image set published with it) into the site's upload storage, re-encoded
// to WebP in two sizes. Idempotent: a second run with the same files stores nothing.
// With the embedded database, stop the server first (its folder is locked).
import { stat } from "node:fs/promises";
import path from "node:path";
import { openConfiguredDatabase } from "../app/db/client.server";
import { localCardArtStore } from "../app/features/cards/card-art-store.server";
import { loadCardImages } from "../app/features/cards/card-images.server";
import { loadEnv } from "../app/lib/env.server";

const folder = process.argv[2];
if (!folder) {
  console.error("usage: npm run cards:images -- <folder with the card image files>");
  process.exit(2);
}
const isFolder = await stat(folder).then((s) => s.isDirectory(), () => false);
if (!isFolder) {
  console.error(`not a folder: ${folder}`);
  process.exit(2);
}

const env = loadEnv();
const database = await openConfiguredDatabase(env);
const store = localCardArtStore(path.join(env.dataDir, "uploads"));
const started = Date.now();
let lastLine = 0;
try {
  const summary = await loadCardImages(database.db, path.resolve(folder), store, (p) => {
    // One line per stored or failed card, and a heartbeat every 250 cards.
    if (p.outcome === "stored" || p.outcome === "failed" || p.done - lastLine >= 250 || p.done === p.total) {
      lastLine = p.done;
      console.log(`[${p.done}/${p.total}] ${p.cardId} ${p.outcome}`);
    }
  });
  for (const f of summary.failures) console.error(`failed: ${f.cardId} ${f.file}: ${f.reason}`);
  console.log(
    `found ${summary.found}, missing ${summary.missing}, failed ${summary.failed} (stored ${summary.stored}, unchanged ${summary.unchanged}) in ${Date.now() - started} ms`,
  );
  if (summary.failed) process.exitCode = 1;
} finally {
  await database.close();
}
