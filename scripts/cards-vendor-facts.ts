// `npm run cards:vendor-facts -- <ptcgp-data checkout>`: compacts Vociferix/ptcgp-data's
// data/cards/*.json (2,000 files, 8 MB with flavour texts) into catalogue/ptcgp-data/cards.json,
// keeping only what the importer reads (catalogue-facts.server.ts). Updating the facts is this
// command on a newer checkout plus a new SOURCE.md line; the importer also reads an unpacked
// data/cards/ folder dropped in as it is.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { compactFactsFile, readUpstreamFacts } from "#app/features/cards/catalogue-facts.server.ts";
import { INSTALL_DIR } from "#app/lib/install-dir.server.ts";

const source = process.argv[2];
if (!source) {
  console.error("usage: npm run cards:vendor-facts -- <ptcgp-data checkout>");
  process.exit(2);
}
const facts = readUpstreamFacts(path.resolve(source));
const out = path.join(INSTALL_DIR, "catalogue/ptcgp-data/cards.json");
writeFileSync(out, compactFactsFile(facts));
console.log(`${facts.length} cards written to catalogue/ptcgp-data/cards.json`);
