import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { INSTALL_DIR } from "#app/lib/install-dir.server.ts";
import { readFactsFolder, type AbstractCardFacts } from "./catalogue-facts.server";

/**
 * The card data the site loads, as files: flibustier/pokemon-tcg-pocket-database's `dist/` (sets,
 * cards, the older facts of cards.extra.json, rarities with trade costs) and Vociferix/ptcgp-data's
 * facts. The vendored copy lives in catalogue/ beside server.js (each folder's SOURCE.md names
 * its commit); an update is a newer copy of the same files, read by the same code.
 */
export const VENDORED_CATALOGUE_DIR = path.join(INSTALL_DIR, "catalogue");

export type SourceSet = {
  code: string;
  releaseDate: string;
  name: Record<string, string | undefined>;
  packs: string[];
};

export type SourceCard = {
  set: string;
  number: number;
  rarity: string;
  name: string;
  image?: string;
  packs?: string[];
  element?: string | null;
  type?: string | null;
  stage?: string | number | null;
  health?: number | null;
  retreatCost?: number | null;
  weakness?: string | null;
  evolvesFrom?: string;
};

/** rarities.json: per rarity code (C, U, … UR) whether it trades and for how much shinedust. */
export type SourceRarity = { tradeable?: boolean; tradePrice?: number | null };

export type CatalogueSource = {
  sets: SourceSet[];
  cards: SourceCard[];
  /** cards.extra.json: type, stage, weakness of the sets it covers (keyed like cards.json). */
  extra: SourceCard[];
  rarities: Record<string, SourceRarity>;
  facts: AbstractCardFacts[];
};

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/**
 * Where sets.json lives in a folder: catalogue/ (the vendored layout), a package copy (dist/), or
 * a folder holding the files themselves (what an admin uploads).
 */
function packageDir(dir: string): string {
  for (const candidate of [path.join(dir, "pokemon-tcg-pocket-database/dist"), path.join(dir, "dist"), dir]) {
    if (existsSync(path.join(candidate, "sets.json"))) return candidate;
  }
  throw new Error(`${dir}: no sets.json (looked in pokemon-tcg-pocket-database/dist/, dist/ and the folder itself)`);
}

/**
 * The facts: catalogue/ptcgp-data/ in the vendored layout, or a facts.json (the compacted form)
 * in a folder of uploaded files. None is fine: the cards keep the facts they have.
 */
function readFacts(dir: string): AbstractCardFacts[] {
  if (existsSync(path.join(dir, "ptcgp-data"))) return readFactsFolder(path.join(dir, "ptcgp-data"));
  if (existsSync(path.join(dir, "facts.json"))) return readJson(path.join(dir, "facts.json"));
  return [];
}

/** sets.json is grouped by series ({A: [...], B: [...]}); a flat array is read too. */
export function flattenSets(sets: Record<string, SourceSet[]> | SourceSet[]): SourceSet[] {
  return Array.isArray(sets) ? sets : Object.values(sets).flat();
}

/** Reads a catalogue folder (by default the vendored one). */
export function readCatalogueSource(dir = VENDORED_CATALOGUE_DIR): CatalogueSource {
  const pkg = packageDir(dir);
  const optional = <T>(file: string, fallback: T): T => (existsSync(path.join(pkg, file)) ? readJson<T>(path.join(pkg, file)) : fallback);
  return {
    sets: flattenSets(readJson(path.join(pkg, "sets.json"))),
    cards: readJson(path.join(pkg, "cards.json")),
    extra: optional("cards.extra.json", []),
    rarities: optional("rarities.json", {}),
    facts: readFacts(dir),
  };
}

let vendored: CatalogueSource | null = null;

/** The vendored catalogue, read once per process (it changes only with a new release). */
export function vendoredCatalogueSource(): CatalogueSource {
  vendored ??= readCatalogueSource();
  return vendored;
}
