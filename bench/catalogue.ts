// `npm run bench:catalogue`: the first-start catalogue import of the vendored data (3,761 cards
// with their facts) against the import the site did before it (the 3,289 cards of
// pokemon-tcg-pocket-database 2.6.1, up to B3, without ptcgp-data's facts: the same files cut to
// what 2.6.1 held), each on a fresh embedded database, BENCH_ROUNDS (default 3) times in the same
// run; then card search and /cards?pack=… past the page cache at the new size against /terms of
// the same server. Needs a build (`npm run build`). BENCH_SECONDS (default 5) per case.
// Also the admin's カタログ更新 of one new set (B4, on a database holding everything else): the
// preview and the apply of the uploaded package files, in process on PGlite, against the
// first-start import of the same round.
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { readCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { readCatalogueSource, type CatalogueSource } from "#app/features/cards/catalogue-source.server.ts";
import { startServer } from "#tests/support/server.ts";
import { applyCatalogueUpload, previewCatalogueUpload, type CatalogueUpload } from "#app/features/cards/catalogue-upload.server.ts";
import { compactFactsFile } from "#app/features/cards/catalogue-facts.server.ts";
import { CACHE_MISS, measure, printTable, type Measurement } from "./support";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const vendored = readCatalogueSource();
// 2.6.1 ended with B3 (2026-04-28) and PROMO-B 62, and had no ptcgp-data facts.
const NEWER_SETS = new Set(["B3a", "B3b", "B4"]);
const before: CatalogueSource = {
  ...vendored,
  sets: vendored.sets.filter((s) => !NEWER_SETS.has(s.code)),
  cards: vendored.cards.filter((c) => !NEWER_SETS.has(c.set) && !(c.set === "PROMO-B" && c.number > 62)),
  facts: [],
};

async function importOnce(source: CatalogueSource): Promise<{ ms: number; cards: number }> {
  const database = await openDatabase({ kind: "pglite" });
  try {
    await migrateDatabase(database);
    const started = performance.now();
    // Reading the files into rows is part of a first start, so it is inside the timing.
    const result = await seedCatalogue(database.db, readCatalogue(source));
    return { ms: performance.now() - started, cards: result.cards };
  } finally {
    await database.close();
  }
}

// The files an admin uploads: the vendored package's four files and the compacted facts.
const upload: CatalogueUpload = {
  files: [
    { name: "sets.json", text: JSON.stringify(vendored.sets) },
    { name: "cards.json", text: JSON.stringify(vendored.cards) },
    { name: "cards.extra.json", text: JSON.stringify(vendored.extra) },
    { name: "rarities.json", text: JSON.stringify(vendored.rarities) },
    { name: "facts.json", text: compactFactsFile(vendored.facts) },
  ],
};

async function updateOnce(): Promise<{ previewMs: number; applyMs: number; newCards: number }> {
  const database = await openDatabase({ kind: "pglite" });
  try {
    await migrateDatabase(database);
    await seedCatalogue(database.db, readCatalogue({ ...vendored, sets: vendored.sets.filter((s) => s.code !== "B4"), cards: vendored.cards.filter((c) => c.set !== "B4") }));
    let started = performance.now();
    const preview = await previewCatalogueUpload(database.db, upload);
    const previewMs = performance.now() - started;
    started = performance.now();
    const plan = await applyCatalogueUpload(database.db, upload, preview.digest);
    return { previewMs, applyMs: performance.now() - started, newCards: plan.newCards };
  } finally {
    await database.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const times = { before: [] as number[], now: [] as number[], preview: [] as number[], apply: [] as number[] };
let updatedCards = 0;
let counts = { before: 0, now: 0 };
for (let round = 0; round < rounds; round++) {
  const old = await importOnce(before);
  const now = await importOnce(vendored);
  times.before.push(old.ms);
  times.now.push(now.ms);
  counts = { before: old.cards, now: now.cards };
  const update = await updateOnce();
  times.preview.push(update.previewMs);
  times.apply.push(update.applyMs);
  updatedCards = update.newCards;
}
const summary = [
  `first-start import, 2.6.1 shape: ${counts.before} cards, median ${median(times.before).toFixed(0)} ms (${times.before.map((t) => t.toFixed(0)).join(", ")})`,
  `first-start import, vendored with facts: ${counts.now} cards, median ${median(times.now).toFixed(0)} ms (${times.now.map((t) => t.toFixed(0)).join(", ")}), ${(median(times.now) / median(times.before)).toFixed(2)}× the 2.6.1 import`,
];
const updateMs = median(times.preview) + median(times.apply);
summary.push(
  `カタログ更新 of one new set (B4, ${updatedCards} new cards) [in process, PGlite]: preview median ${median(times.preview).toFixed(0)} ms, apply median ${median(times.apply).toFixed(0)} ms, together ${(updateMs / median(times.now)).toFixed(2)}× the first-start import`,
);
for (const line of summary) console.log(line);

const CASES: [string, string][] = [
  ["search ぴかちゅう", `/api/cards/search?q=${encodeURIComponent("ぴかちゅう")}`],
  ["search ピ", `/api/cards/search?q=${encodeURIComponent("ピ")}`],
  ["SSR /cards?pack=b4-ruler-of-the-skies", "/cards?pack=b4-ruler-of-the-skies"],
  ["SSR /cards?pack=dialga", "/cards?pack=dialga"],
  ["SSR /cards/B3a-010", "/cards/B3a-010"],
];
const server = await startServer({ LOG_LEVEL: "warn" });
try {
  for (const [, path] of CASES) await measure("warm-up", `${server.url}${path}`, { duration: 1, connections: 4, headers: CACHE_MISS });
  const terms = await measure("/terms, cache miss", `${server.url}/terms`, { duration, connections, headers: CACHE_MISS });
  const rows: Measurement[] = [terms];
  for (const [name, path] of CASES) rows.push(await measure(`${name}, cache miss`, `${server.url}${path}`, { duration, connections, headers: CACHE_MISS }));
  printTable(`[server mode: ${server.mode}] Catalogue at ${counts.now} cards on pglite — ${connections} connections, ${duration} s per case, past the page cache, ratios vs /terms`, rows, terms);
  for (const row of rows.slice(1)) summary.push(`${row.name}: ${(row.rps / terms.rps).toFixed(2)}× /terms req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms`);
} finally {
  await server.stop();
}
console.log(`\nSummary\n${summary.map((s) => `- ${s}`).join("\n")}`);
