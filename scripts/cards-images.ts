// `npm run cards:images -- <folder>`: loads the operator's card image files (named as in the
// catalogue, e.g. the image set published with it) into the site's upload storage, re-encoded
// to WebP in two sizes (the local folder, or the S3 bucket when S3_BUCKET is set). Idempotent: a second run with the same files stores nothing.
// With the embedded database, stop the server first (its folder is locked).
import { stat } from "node:fs/promises";
import path from "node:path";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { loadCardImages } from "#app/features/cards/card-images.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

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
// The one upload store: DATA_DIR/uploads, or the S3 bucket when S3_BUCKET is set.
const store = uploadStore(env);
console.log(`storing card art in the ${store.kind === "s3" ? "S3 bucket" : "local upload folder"}`);
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
