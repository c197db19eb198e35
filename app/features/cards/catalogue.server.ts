import { createRequire } from "node:module";
import type { Db } from "#app/db/client.server.ts";
import { eq } from "drizzle-orm";
import { cards, type packs } from "#app/db/schema/index.ts";
import { invalidateCardIndex } from "./card-index.server";
import { foldForSearch } from "#app/lib/search-text.ts";
import { applyCatalogueUpdate, planCatalogueUpdate, type CataloguePlan } from "./catalogue-update.server";
import { resolveJapaneseName } from "./japanese-names";
import { rarityFromCode } from "#app/lib/rarity.ts";
import { romanisedToken } from "./romanisation";
import { vendoredCatalogueSource, type CatalogueSource, type SourceCard } from "./catalogue-source.server";
import type { AbstractCardFacts, CardAttack } from "./catalogue-facts.server";

const require = createRequire(import.meta.url);

// Japanese set names of the game where we know them for certain, with where each was checked
// (SET_NAME_SOURCES); the catalogue data only has some. A set missing here is shown to a Japanese
// reader by its code alone (B3): never an English name on a Japanese page, never a guessed one.
// `cards:names-report` lists those sets until a verified name is added.
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
  A4b: "ハイクラスパックex",
  B1: "メガライジング",
  B1a: "紅蓮ブレイズ",
  B2: "夢幻パレード",
  B2a: "パルデアワンダー",
  B2b: "シャイニングメガ",
  B3: "波動ビート",
  B3a: "進撃パラドックス",
  B3b: "ミラクルデイズ",
  B4: "天空の支配者",
  "PROMO-A": "プロモA",
  "PROMO-B": "プロモB",
};

/** A set's Japanese name: the verified one, or its code alone. */
export function setNameJaOf(setCode: string): string {
  return SET_NAMES_JA[setCode] ?? setCode;
}

/** True when the set's Japanese name is a verified one (not its bare code). */
export function hasVerifiedSetName(setCode: string): boolean {
  return setCode in SET_NAMES_JA;
}

// Set names exported from the running game's Japanese data (metadata/sets/ja-JP/sets.json).
const GAME_SETS_JA = "https://github.com/shelken/ptcgp-assets/blob/fb8cf4f55d852aac8ddf145cc06d5895345ebc8b/metadata/sets/ja-JP/sets.json";
// A Japanese deck builder's set registry, written apart from the game export (its A4b name differs).
const AXROSS_SETS = "https://github.com/axross/ptcgp.axross.dev/blob/387e1bfe62e34ecf91caf144a56caa5985d76e65/src/lib/cards/set-registry.ts";

/** Public Japanese pages the newer set names were checked against (release reports of each set). */
export const SET_NAME_SOURCES: Record<string, string[]> = {
  A4: ["https://shirabemonoiroiroarimasu.com/1121.html", "https://world-wide-news.com/?p=4850"],
  A4a: ["https://news.livedoor.com/article/detail/29461182/"],
  B1: ["https://lifematome.blog/pokepoke-megarising-next"],
  B1a: ["https://oisonewspaper.com/?p=23448", "https://trendxday.com/2025/12/11/101715/"],
  B2: ["https://lifematome.blog/pokepoke-parade-19matome", "https://lifematome.blog/pokeca-kannkou-toujou"],
  // The game's own Japanese set names as exported from its data (A4b is written "ハイクラスパック ex"
  // there; the official account and the guides write ハイクラスパックex, as cards write ex).
  A4b: [GAME_SETS_JA, "https://smabros.net/2026/02/06/%e3%80%90%e3%83%9d%e3%82%b1%e3%83%9d%e3%82%b1%e3%80%91%e5%9b%b3%e9%91%91%e7%99%bb%e9%8c%b2%e3%83%90%e3%82%b0%e5%95%8f%e9%a1%8c%e3%81%a8%e3%81%af%ef%bc%9f2026%e5%b9%b4%e5%a4%8f%e3%82%a2%e3%83%83"],
  B2a: [GAME_SETS_JA, AXROSS_SETS],
  B2b: [GAME_SETS_JA, AXROSS_SETS],
  B3: [GAME_SETS_JA, AXROSS_SETS],
  B3a: [GAME_SETS_JA, AXROSS_SETS],
  B3b: [GAME_SETS_JA, AXROSS_SETS],
  // Not yet in the exported game data: the B4 set file of a TCGdex fork, which names it in every language.
  B4: ["https://github.com/wsgtcyx/cards-database/blob/0daf7411dfe828510bf66d43f3913a9e01afcc40/data/Pok%C3%A9mon%20TCG%20Pocket/Ruler%20of%20the%20Skies.ts"],
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

export const slug = (s: string) =>
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
    // Some newer cards of the data lose the space (AlolanVulpix): the form word still leads.
    const word = en.trim();
    if (rest.startsWith(en) || (rest.startsWith(word) && /^[A-Z]/.test(rest.slice(word.length)))) {
      prefix += ja;
      rest = rest.slice(word.length).trimStart();
    }
  }
  const base = FORMS[normaliseEnglish(rest)] ?? names.get(normaliseEnglish(rest));
  if (!base) return english;
  return `${prefix}${base}${suffix}`;
}

/** A catalogue read into rows for our tables (what the seed and `cards:update` apply). */
export type Catalogue = {
  packs: CataloguePack[];
  cards: CatalogueCardRow[];
  /** Shinedust each side pays to trade a card of the rarity (display code → cost), from rarities.json. */
  tradeCosts: Map<string, number>;
  /** False when the source carries no facts at all (a bare sets.json + cards.json): cards keep theirs. */
  hasFacts: boolean;
};

let vendoredCatalogue: Catalogue | null = null;

/** Reads a catalogue source (by default the vendored one, read once per process) into rows for our tables. */
export function readCatalogue(source?: CatalogueSource): Catalogue {
  if (source) return catalogueOf(source);
  vendoredCatalogue ??= catalogueOf(vendoredCatalogueSource());
  return vendoredCatalogue;
}

function catalogueOf(source: CatalogueSource): Catalogue {
  // cards.json lists every card; cards.extra.json adds type, stage and weakness for the older
  // sets, and ptcgp-data's facts (HP, weakness, retreat, attacks) win wherever they exist.
  const extra = new Map<string, SourceCard>(source.extra.map((c) => [`${c.set}-${c.number}`, c]));
  const factsOf = factsLookup(source.facts);
  const catalogueCards = source.cards.map((c) => {
    const more = extra.get(`${c.set}-${c.number}`);
    return { ...c, element: more?.element, type: more?.type, stage: more?.stage, health: more?.health, retreatCost: more?.retreatCost, weakness: more?.weakness, evolvesFrom: more?.evolvesFrom };
  });
  // The package fills HP and retreat cost with one value for every card (50 and 1): a
  // placeholder, not data. They are kept only once they vary from card to card.
  const realHp = new Set(catalogueCards.map((c) => c.health).filter((v) => v != null)).size > 1;
  const realRetreat = new Set(catalogueCards.map((c) => c.retreatCost).filter((v) => v != null)).size > 1;
  const names = loadPokemonNames();
  // Newest set first; packs inside a set keep the catalogue's order.
  const ordered = [...source.sets].sort((a, b) => b.releaseDate.localeCompare(a.releaseDate) || b.code.localeCompare(a.code));

  const packRows: CataloguePack[] = [];
  const packIdsBySet = new Map<string, string[]>();
  const packIdByKey = new Map<string, string>();
  for (const set of ordered) {
    const isPromo = set.code.startsWith("PROMO");
    const setNameEn = set.name.en ?? set.code;
    const setNameJa = SET_NAMES_JA[set.code] ?? set.code;
    const mascots = isPromo ? [set.code] : set.packs;
    const ids: string[] = [];
    for (const mascot of mascots) {
      const key = isPromo ? set.code : `${set.code}/${mascot}`;
      const id = PACK_IDS[key] ?? (mascots.length > 1 ? `${slug(set.code)}-${slug(mascot)}` : slug(`${set.code}-${setNameEn}`));
      const mascotJa = japaneseCardName(mascot, names);
      // A pack named by its mascot gets the mascot's Japanese name; one whose English name is
      // not a Pokémon is told apart by its set alone.
      const multi = mascots.length > 1;
      packRows.push({
        id,
        nameJa: multi ? `${setNameJa}（${mascotJa === mascot ? mascots.indexOf(mascot) + 1 : mascotJa}）` : setNameJa,
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
    const id = `${card.set}-${String(card.number).padStart(3, "0")}`;
    const facts = factsOf(id, card.set, card.name);
    const pokemonFacts = facts?.kind === "pokemon" && !trainer ? facts : undefined;
    cardRows.push({
      id,
      setCode: card.set,
      number: card.number,
      name,
      nameReading: resolved.reading,
      nameEn: card.name,
      rarity,
      imageUrl: "",
      imageFile: card.image ?? null,
      element: pokemonFacts?.element ?? (card.element ? card.element.toLowerCase() : null),
      // Fossils are items to ptcgp-data; the deck rules need them told apart (game-facts.server.ts).
      cardType: card.type?.toLowerCase() === "fossil" ? "fossil" : trainer && facts && facts.kind !== "pokemon" ? facts.kind : cardTypeOf(card.type, trainer),
      stage: trainer ? null : (pokemonFacts?.stage ?? stageOf(card.stage)),
      hp: pokemonFacts?.hp ?? (realHp ? (card.health ?? null) : null),
      weakness: pokemonFacts ? (pokemonFacts.weakness ?? null) : card.weakness ? card.weakness.toLowerCase() : null,
      retreatCost: pokemonFacts?.retreat ?? (realRetreat ? (card.retreatCost ?? null) : null),
      attacks: pokemonFacts?.attacks ?? null,
      evolvesFrom: pokemonFacts ? (pokemonFacts.evolvesFrom ?? null) : (card.evolvesFrom ?? null),
      searchText: cardSearchText(name, card.name, resolved.reading),
      packIds,
    });
  }
  const tradeCosts = new Map<string, number>();
  for (const [code, rarity] of Object.entries(source.rarities)) {
    const display = rarityFromCode(code);
    if (display && rarity.tradePrice != null) tradeCosts.set(display, rarity.tradePrice);
  }
  return { packs: packRows, cards: cardRows, tradeCosts, hasFacts: source.facts.length > 0 || source.extra.length > 0 };
}

const factsName = (name: string) => normaliseEnglish(name).replace(/[\s'.-]/g, "");

/**
 * The facts of one card of cards.json. ptcgp-data numbers some prints differently (its B3a was
 * written on release day in another order: its B3a-001 is きずぐすり, the set's is アメタマ), so a
 * print's facts count only when their name is the card's (or ends with it: "Origin Forme Palkia"
 * for "Palkia"); otherwise the one card of that name with a print in the same set, if there is
 * exactly one. Anything else gets no facts rather than another card's.
 */
function factsLookup(all: AbstractCardFacts[]): (id: string, set: string, english: string) => AbstractCardFacts | undefined {
  const byPrint = new Map<string, AbstractCardFacts>();
  const bySetName = new Map<string, Set<AbstractCardFacts>>();
  for (const card of all) {
    for (const print of card.prints) {
      byPrint.set(print, card);
      const key = `${print.slice(0, print.lastIndexOf("-"))}\t${factsName(card.name)}`;
      bySetName.set(key, (bySetName.get(key) ?? new Set()).add(card));
    }
  }
  return (id, set, english) => {
    const name = factsName(english);
    const printed = byPrint.get(id);
    if (printed && factsName(printed.name).endsWith(name)) return printed;
    const named = bySetName.get(`${set}\t${name}`);
    return named?.size === 1 ? [...named][0] : undefined;
  };
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

export type { CardAttack };

/**
 * Brings what is new in the vendored catalogue into the database (first start, `npm run db:seed`):
 * new sets, packs and cards, and facts a card lacks. It never renames or overwrites a card, so an
 * admin's corrections stand; renames from a newer copy go through `cards:update --apply`.
 * Running it twice changes nothing the second time.
 */
export async function seedCatalogue(db: Db, catalogue: Catalogue = readCatalogue()): Promise<{ packs: number; cards: number; plan: CataloguePlan }> {
  const plan = await applyCatalogueUpdate(db, catalogue, "add");
  return { packs: catalogue.packs.length, cards: catalogue.cards.length, plan };
}

/** True when the database holds everything the vendored catalogue would add (start-up skips the import then). */
export async function hasCatalogue(db: Db): Promise<boolean> {
  return !(await planCatalogueUpdate(db, readCatalogue(), "add")).changes;
}

/**
 * An admin's correction of a card's Japanese name, with where it comes from (false: no such card).
 * The note marks the name as the admin's: start-up and catalogue updates keep it (the update's
 * preview says so).
 */
export async function correctCardName(db: Db, cardId: string, correction: { name: string; reading?: string; note: string }): Promise<boolean> {
  const [card] = await db.select({ nameEn: cards.nameEn }).from(cards).where(eq(cards.id, cardId));
  if (!card) return false;
  const reading = correction.reading ?? "";
  await db
    .update(cards)
    .set({ name: correction.name, nameReading: reading, nameNote: correction.note, searchText: cardSearchText(correction.name, card.nameEn, reading) })
    .where(eq(cards.id, cardId));
  invalidateCardIndex(db);
  return true;
}
