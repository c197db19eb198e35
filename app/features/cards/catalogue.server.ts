import { createRequire } from "node:module";
import { and, count, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { cardPacks, cards, packs, rarities } from "../../db/schema/index";
import { foldForSearch } from "../../lib/search-text";
import { invalidateCardIndex } from "./card-index.server";
import { resolveJapaneseName } from "./japanese-names";
import { RARITIES, rarityFromCode } from "../../lib/rarity";
import { romanisedToken } from "./romanisation";

const require = createRequire(import.meta.url);

type CatalogueSet = {
  code: string;
  releaseDate: string;
  name: Record<string, string | undefined>;
  packs: string[];
};
type CatalogueCard = {
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
};

// Japanese set names of the game where we know them for certain, with where each was checked
// (SET_NAME_SOURCES); the catalogue package only has some. A set missing here is shown as its
// code with the English name in parentheses (B3（Pulsing Aura）) until a verified name exists.
const SET_NAMES_JA: Record<string, string> = {
  A1: "最強の遺伝子",
  A1a: "幻のいる島",
  A2: "時空の激闘",
  A2a: "超克の光",
  A2b: "シャイニングハイ",
  A3: "双天の守護者",
  A3a: "異次元クライシス",
  A3b: "イーブイガーデン",
  A4: "空と海の導き",
  A4a: "未知なる水域",
  B1: "メガライジング",
  B1a: "紅蓮ブレイズ",
  B2: "夢幻パレード",
  "PROMO-A": "プロモA",
  "PROMO-B": "プロモB",
};

/** Public Japanese pages the newer set names were checked against (release reports of each set). */
export const SET_NAME_SOURCES: Record<string, string[]> = {
  A4: ["https://shirabemonoiroiroarimasu.com/1121.html", "https://world-wide-news.com/?p=4850"],
  A4a: ["https://news.livedoor.com/article/detail/29461182/"],
  B1: ["https://lifematome.blog/pokepoke-megarising-next"],
  B1a: ["https://oisonewspaper.com/?p=23448", "https://trendxday.com/2025/12/11/101715/"],
  B2: ["https://lifematome.blog/pokepoke-parade-19matome", "https://lifematome.blog/pokeca-kannkou-toujou"],
};

// docs/product-rules.md §3 set B ids for the packs it names; every other pack gets a slug of its own.
const PACK_IDS: Record<string, string> = {
  "A1/Pikachu": "pikachu",
  "A1/Charizard": "charizard",
  "A1/Mewtwo": "mewtwo",
  "A1a/Mew": "phantom",
  "A2/Dialga": "dialga",
  "A2/Palkia": "palkia",
  "A2a/Arceus": "memorial",
  "A2b/Shining": "shining-high",
  "PROMO-A": "promo",
  "PROMO-B": "promo-b",
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export type CataloguePack = typeof packs.$inferInsert;
export type CatalogueCardRow = typeof cards.$inferInsert & { packIds: string[] };

function loadPokemonNames(): Map<string, string> {
  const en: string[] = require("pokemon/data/en.json");
  const ja: string[] = require("pokemon/data/ja.json");
  const map = new Map<string, string>();
  en.forEach((name, i) => {
    if (ja[i]) map.set(normaliseEnglish(name), ja[i]);
  });
  return map;
}

/** An English name as names are compared: straight apostrophes, single spaces, lower case. */
export function normaliseEnglish(name: string): string {
  return name.replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim().toLowerCase();
}

// Forms whose Japanese names are not "form word + species name".
const FORMS: Record<string, string> = {
  "mow rotom": "カットロトム",
  "heat rotom": "ヒートロトム",
  "wash rotom": "ウォッシュロトム",
  "frost rotom": "フロストロトム",
  "fan rotom": "スピンロトム",
  "dawn wings necrozma": "日食ネクロズマ",
  "dusk mane necrozma": "月食ネクロズマ",
  "ultra necrozma": "ウルトラネクロズマ",
};

const REGIONAL_FORMS: [string, string][] = [
  ["Alolan ", "アローラ"],
  ["Galarian ", "ガラル"],
  ["Hisuian ", "ヒスイ"],
  ["Paldean ", "パルデア"],
];

/**
 * Japanese card name for a Pokémon card, derived from the Pokémon's Japanese name and keeping
 * the card's markers the way Japanese cards print them (メガ…, アローラ…, …ex). Trainer cards
 * and anything we cannot derive keep the English name.
 */
export function japaneseCardName(english: string, names: Map<string, string>): string {
  let rest = english.trim();
  let suffix = "";
  let prefix = "";
  const ex = / ex$/i.exec(rest);
  if (ex) {
    suffix = "ex";
    rest = rest.slice(0, ex.index);
  }
  if (/^Mega /.test(rest)) {
    prefix = "メガ";
    rest = rest.slice(5);
    // Mega Charizard X / Y
    const xy = / ([XY])$/.exec(rest);
    if (xy) {
      rest = rest.slice(0, xy.index);
      suffix = xy[1] + suffix;
    }
  }
  for (const [en, ja] of REGIONAL_FORMS) {
    if (rest.startsWith(en)) {
      prefix += ja;
      rest = rest.slice(en.length);
    }
  }
  const base = FORMS[normaliseEnglish(rest)] ?? names.get(normaliseEnglish(rest));
  if (!base) return english;
  return `${prefix}${base}${suffix}`;
}

/** Reads the packs and cards of the npm catalogue into rows for our tables. */
export function readCatalogue(): { packs: CataloguePack[]; cards: CatalogueCardRow[] } {
  const setsBySeries: Record<string, CatalogueSet[]> = require("pokemon-tcg-pocket-database/dist/sets.json");
  // cards.json lists every card; cards.extra.json adds type and element for most of them.
  const extra = new Map<string, CatalogueCard>(
    (require("pokemon-tcg-pocket-database/dist/cards.extra.json") as CatalogueCard[]).map((c) => [`${c.set}-${c.number}`, c]),
  );
  const catalogueCards = (require("pokemon-tcg-pocket-database/dist/cards.json") as CatalogueCard[]).map((c) => {
    const more = extra.get(`${c.set}-${c.number}`);
    return { ...c, element: more?.element, type: more?.type, stage: more?.stage, health: more?.health, retreatCost: more?.retreatCost, weakness: more?.weakness };
  });
  // The package fills HP and retreat cost with one value for every card (50 and 1): a
  // placeholder, not data. They are kept only once they vary from card to card.
  const realHp = new Set(catalogueCards.map((c) => c.health).filter((v) => v != null)).size > 1;
  const realRetreat = new Set(catalogueCards.map((c) => c.retreatCost).filter((v) => v != null)).size > 1;
  const names = loadPokemonNames();
  const sets = Object.values(setsBySeries).flat();
  // Newest set first; packs inside a set keep the catalogue's order.
  const ordered = [...sets].sort((a, b) => b.releaseDate.localeCompare(a.releaseDate) || b.code.localeCompare(a.code));

  const packRows: CataloguePack[] = [];
  const packIdsBySet = new Map<string, string[]>();
  const packIdByKey = new Map<string, string>();
  for (const set of ordered) {
    const isPromo = set.code.startsWith("PROMO");
    const setNameEn = set.name.en ?? set.code;
    const setNameJa = SET_NAMES_JA[set.code] ?? (setNameEn === set.code ? set.code : `${set.code}（${setNameEn}）`);
    const mascots = isPromo ? [set.code] : set.packs;
    const ids: string[] = [];
    for (const mascot of mascots) {
      const key = isPromo ? set.code : `${set.code}/${mascot}`;
      const id = PACK_IDS[key] ?? (mascots.length > 1 ? `${slug(set.code)}-${slug(mascot)}` : slug(`${set.code}-${setNameEn}`));
      const mascotJa = japaneseCardName(mascot, names);
      const multi = mascots.length > 1;
      packRows.push({
        id,
        nameJa: multi ? `${setNameJa}（${mascotJa}）` : setNameJa,
        nameEn: multi ? `${setNameEn} (${mascot})` : setNameEn,
        setCode: set.code,
        setNameJa,
        setNameEn,
        releaseDate: set.releaseDate,
        sortOrder: packRows.length,
      });
      ids.push(id);
      packIdByKey.set(isPromo ? set.code : key, id);
    }
    packIdsBySet.set(set.code, ids);
  }

  const cardRows: CatalogueCardRow[] = [];
  for (const card of catalogueCards) {
    const isPromo = card.set.startsWith("PROMO");
    const rarity = isPromo ? "PROMO" : rarityFromCode(card.rarity);
    if (!rarity) throw new Error(`Unknown rarity ${card.rarity} for ${card.set}-${card.number}`);
    const setPacks = packIdsBySet.get(card.set) ?? [];
    // A card listed in no pack (e.g. a bonus card of the set) belongs to every pack of its set.
    const packIds = isPromo
      ? setPacks
      : card.packs?.length
        ? card.packs.map((p) => packIdByKey.get(`${card.set}/${p}`)).filter((p): p is string => Boolean(p))
        : setPacks;
    const token = card.image ? romanisedToken(card.image) : null;
    const trainer = card.image?.startsWith("cTR_") ?? false;
    const resolved = resolveJapaneseName({
      token,
      english: card.name,
      trainer,
      speciesName: (english) => japaneseCardName(english, names),
    });
    const name = resolved.name;
    cardRows.push({
      id: `${card.set}-${String(card.number).padStart(3, "0")}`,
      setCode: card.set,
      number: card.number,
      name,
      nameReading: resolved.reading,
      nameEn: card.name,
      rarity,
      imageUrl: "",
      imageFile: card.image ?? null,
      element: card.element ? card.element.toLowerCase() : null,
      cardType: cardTypeOf(card.type, trainer),
      stage: trainer ? null : stageOf(card.stage),
      hp: realHp ? (card.health ?? null) : null,
      weakness: card.weakness ? card.weakness.toLowerCase() : null,
      retreatCost: realRetreat ? (card.retreatCost ?? null) : null,
      searchText: cardSearchText(name, card.name, resolved.reading),
      packIds,
    });
  }
  return { packs: packRows, cards: cardRows };
}

/** What search matches a card by: its name, kana reading and English name, folded. */
export function cardSearchText(name: string, nameEn: string, reading = ""): string {
  return foldForSearch([name, reading, nameEn].filter((part, i, all) => part && all.indexOf(part) === i).join(" "));
}

function cardTypeOf(type: string | null | undefined, trainer: boolean): string {
  const t = type?.toLowerCase();
  if (t === "pokemon" || t === "supporter" || t === "item" || t === "tool" || t === "fossil" || t === "stadium") return t;
  return trainer ? "trainer" : "pokemon";
}

function stageOf(stage: string | number | null | undefined): string | null {
  if (stage === "basic" || stage === 0) return "basic";
  if (stage === 1) return "stage1";
  if (stage === 2) return "stage2";
  return null;
}

/** Upserts rarities, packs and cards; running it twice changes nothing the second time. */
export async function seedCatalogue(db: Db): Promise<{ packs: number; cards: number }> {
  const catalogue = readCatalogue();
  await db.transaction(async (tx) => {
    // Admin-edited trade flags survive a re-seed: rarities are only inserted, never overwritten.
    await tx.insert(rarities).values([...RARITIES]).onConflictDoNothing();
    await tx
      .insert(packs)
      .values(catalogue.packs)
      .onConflictDoUpdate({
        target: packs.id,
        set: {
          nameJa: sql`excluded.name_ja`,
          nameEn: sql`excluded.name_en`,
          setCode: sql`excluded.set_code`,
          setNameJa: sql`excluded.set_name_ja`,
          setNameEn: sql`excluded.set_name_en`,
          releaseDate: sql`excluded.release_date`,
          sortOrder: sql`excluded.sort_order`,
        },
      });
    for (let i = 0; i < catalogue.cards.length; i += 500) {
      const batch = catalogue.cards.slice(i, i + 500);
      await tx
        .insert(cards)
        .values(batch.map(({ packIds: _packIds, ...row }) => row))
        .onConflictDoUpdate({
          target: cards.id,
          set: {
            name: sql`excluded.name`,
            nameReading: sql`excluded.name_reading`,
            nameEn: sql`excluded.name_en`,
            rarity: sql`excluded.rarity`,
            imageFile: sql`excluded.image_file`,
            element: sql`excluded.element`,
            cardType: sql`excluded.card_type`,
            stage: sql`excluded.stage`,
            hp: sql`excluded.hp`,
            weakness: sql`excluded.weakness`,
            retreatCost: sql`excluded.retreat_cost`,
            searchText: sql`excluded.search_text`,
          },
        });
      const links = batch.flatMap((c) => c.packIds.map((packId) => ({ cardId: c.id as string, packId })));
      if (links.length) await tx.insert(cardPacks).values(links).onConflictDoNothing();
    }
  });
  invalidateCardIndex(db);
  return { packs: catalogue.packs.length, cards: catalogue.cards.length };
}

/**
 * True when the catalogue has been loaded before in its current shape (start-up skips the
 * import then). Catalogue cards loaded before the image file names were kept get re-seeded
 * once, which also gives them their readings; so do packs still named in English only.
 */
export async function hasCatalogue(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(packs);
  if ((row?.n ?? 0) === 0) return false;
  const [stale] = await db
    .select({ n: count() })
    .from(cards)
    .where(and(isNotNull(cards.setCode), isNull(cards.imageFile)));
  if ((stale?.n ?? 0) > 0) return false;
  // Packs loaded before their set's Japanese name was verified carry the bare English name.
  const [untranslated] = await db.select({ n: count() }).from(packs).where(sql`${packs.nameJa} = ${packs.nameEn} and ${packs.setCode} not like 'PROMO%'`);
  return (untranslated?.n ?? 0) === 0;
}
