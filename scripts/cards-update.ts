// `npm run cards:update -- <folder> [--apply]`: what a newer copy of the card data would change
// (new sets, new cards, renamed, changed rarity; never a removal), and with --apply writes it in
// one transaction. The folder is catalogue/ (the vendored layout), a package copy with dist/, or
// one holding sets.json and cards.json (+ cards.extra.json, rarities.json, facts.json). The
// server's first start and `npm run db:seed` apply the vendored folder the same way.
import path from "node:path";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { readCatalogue } from "#app/features/cards/catalogue.server.ts";
import { readCatalogueSource } from "#app/features/cards/catalogue-source.server.ts";
import { applyCatalogueUpdate, formatCataloguePlan, planCatalogueUpdate } from "#app/features/cards/catalogue-update.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

const args = process.argv.slice(2);
const apply = args.includes("--apply");
const folder = args.find((a) => !a.startsWith("--"));
if (!folder) {
  console.error("usage: npm run cards:update -- <folder> [--apply]");
  process.exit(2);
}
const catalogue = readCatalogue(readCatalogueSource(path.resolve(folder)));
const database = await openConfiguredDatabase(loadEnv());
try {
  const plan = apply ? await applyCatalogueUpdate(database.db, catalogue) : await planCatalogueUpdate(database.db, catalogue);
  console.log(formatCataloguePlan(plan));
  if (!apply && plan.changes) console.log("Nothing written: run again with --apply to write it.");
} finally {
  await database.close();
}
