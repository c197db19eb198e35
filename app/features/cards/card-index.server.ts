import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, packs, rarities } from "#app/db/schema/index.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import type { CardListItem, CardPlayFacts } from "./types";

/**
 * The listable catalogue (docs/product-rules.md §5: cards with a name and a rarity), held in memory per
 * database handle for browsing and search. The catalogue is a few thousand short rows that
 * change only on import, and PGlite answers one query at a time: matching ~3,300 folded names
 * in memory costs well under a millisecond, a query tens (docs/decisions/003-card-search.md).
 *
 * Freshness: an entry is reloaded after INDEX_TTL_MS, and at once after a write on this
 * instance (`invalidateCardIndex`, called by the CSV import and the catalogue seed), which also
 * drops the lists kept with `rememberCatalogueList`. Other
 * instances behind a load balancer converge within the TTL.
 */
export const INDEX_TTL_MS = 30_000;
/** Lists derived from the catalogue (a minute of staleness on other instances is fine). */
export const CATALOGUE_TTL_MS = 60_000;

/** A card's own columns as lists read them: picture, names and rarity. */
export const CARD_SUMMARY_COLUMNS = {
  id: cards.id,
  name: cards.name,
  nameEn: cards.nameEn,
  rarity: cards.rarity,
  imageUrl: cards.imageUrl,
  imageFile: cards.imageFile,
  storedImage: cards.storedImage,
  speciesArt: cards.speciesArt,
  element: cards.element,
  cardType: cards.cardType,
  stage: cards.stage,
  hp: cards.hp,
};

/** The summary with the card's place in its set, for ordering. */
export const CARD_COLUMNS = { ...CARD_SUMMARY_COLUMNS, number: cards.number, setCode: cards.setCode };

/** A pack as lists name it: its names, its set and when it came out. */
export const PACK_COLUMNS = { id: packs.id, nameJa: packs.nameJa, nameEn: packs.nameEn, setCode: packs.setCode, releaseDate: packs.releaseDate };

export type IndexedPack = { id: string; nameJa: string; nameEn: string; setCode: string; releaseDate: string; sortOrder: number };

export type IndexedCard = CardListItem & {
  rank: number;
  tradeable: boolean;
  searchText: string;
  /** Packs the card is in, newest (lowest sort order) first. */
  packIds: string[];
  /** Its bit in the players' collection summaries (cards.trade_bit, docs/decisions/049). */
  tradeBit: number;
};

export type CardIndex = {
  packs: Map<string, IndexedPack>;
  cards: IndexedCard[];
  /** Every listable card by id, with or without a pack (offers and decks look cards up here). */
  byId: Map<string, IndexedCard>;
  /** Each pack's cards by rarity rank (highest first), then number, then id. */
  byPack: Map<string, IndexedCard[]>;
  /** Weakness, retreat and attacks of the cards a source describes (the deck page's facts, without a query). */
  playFacts: Map<string, CardPlayFacts>;
};

const NO_PLAY_FACTS: CardPlayFacts = { weakness: null, retreatCost: null, attacks: null };

/** A card's weakness, retreat and attacks from the index; all null when no source describes it. */
export function playFactsOf(index: CardIndex, cardId: string): CardPlayFacts {
  return index.playFacts.get(cardId) ?? NO_PLAY_FACTS;
}

/** docs/product-rules.md §9 order: rarity rank highest first, then card number, then id. */
export function compareCards(a: Pick<IndexedCard, "rank" | "number" | "id">, b: Pick<IndexedCard, "rank" | "number" | "id">): number {
  return b.rank - a.rank || (a.number ?? 0) - (b.number ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function loadCardIndex(db: Db): Promise<CardIndex> {
  const [packRows, cardRows, linkRows] = await Promise.all([
    db
      .select({ ...PACK_COLUMNS, sortOrder: packs.sortOrder })
      .from(packs),
    db
      .select({
        ...CARD_COLUMNS,
        searchText: cards.searchText,
        tradeBit: cards.tradeBit,
        weakness: cards.weakness,
        retreatCost: cards.retreatCost,
        attacks: cards.attacks,
        rank: rarities.rank,
        tradeable: rarities.tradeable,
      })
      .from(cards)
      .leftJoin(rarities, eq(rarities.code, cards.rarity))
      .where(and(ne(cards.name, ""), ne(cards.rarity, ""))),
    db.select({ cardId: cardPacks.cardId, packId: cardPacks.packId }).from(cardPacks),
  ]);
  const packMap = new Map(packRows.map((p) => [p.id, p]));
  const cardMap = new Map<string, IndexedCard>();
  const playFacts = new Map<string, CardPlayFacts>();
  for (const row of cardRows) {
    if (row.weakness !== null || row.retreatCost !== null || row.attacks !== null) {
      playFacts.set(row.id, { weakness: row.weakness, retreatCost: row.retreatCost, attacks: row.attacks });
    }
    cardMap.set(row.id, {
      id: row.id,
      name: row.name,
      nameEn: row.nameEn,
      rarity: row.rarity,
      imageUrl: row.imageUrl,
      imageFile: row.imageFile,
      storedImage: row.storedImage,
      speciesArt: row.speciesArt,
      element: row.element,
      cardType: row.cardType,
      stage: row.stage,
      hp: row.hp,
      number: row.number,
      setCode: row.setCode,
      searchText: row.searchText,
      rank: row.rank ?? 0,
      tradeable: row.tradeable ?? false,
      packIds: [],
      tradeBit: row.tradeBit,
    });
  }
  const byPack = new Map<string, IndexedCard[]>();
  for (const link of linkRows) {
    const card = cardMap.get(link.cardId);
    if (!card || !packMap.has(link.packId)) continue;
    card.packIds.push(link.packId);
    const list = byPack.get(link.packId);
    if (list) list.push(card);
    else byPack.set(link.packId, [card]);
  }
  const order = (id: string) => packMap.get(id)?.sortOrder ?? Number.MAX_SAFE_INTEGER;
  for (const card of cardMap.values()) card.packIds.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  for (const list of byPack.values()) list.sort(compareCards);
  const all = [...cardMap.values()].filter((c) => c.packIds.length > 0).sort(compareCards);
  return { packs: packMap, cards: all, byPack, byId: cardMap, playFacts };
}

/** What a card's picture is drawn from (CardImage), without the index's own fields. */
export function cardFaceOf(card: IndexedCard): CardListItem {
  return {
    id: card.id,
    name: card.name,
    nameEn: card.nameEn,
    rarity: card.rarity,
    imageUrl: card.imageUrl,
    imageFile: card.imageFile,
    storedImage: card.storedImage,
    speciesArt: card.speciesArt,
    element: card.element,
    cardType: card.cardType,
    stage: card.stage,
    hp: card.hp,
    setCode: card.setCode,
    number: card.number,
  };
}

// One index per open database (tests and tools open several in one process).
const indexes = createCache<CardIndex>({ name: "card-index", max: 16, ttlMs: INDEX_TTL_MS });
/**
 * Pack lists, showcases, trade rarities and each card page's card and family: read on every page,
 * changed with the catalogue. Room for a card and a family of every card of the catalogue (about
 * 3,000 cards; a family is at most 24 prints, a few KB) besides the lists.
 */
const catalogueLists = createCache<unknown>({ name: "catalogue", max: 10_000, ttlMs: CATALOGUE_TTL_MS });

/** The card index of this database, loaded once and shared by concurrent requests. */
export function cardIndex(db: Db): Promise<CardIndex> {
  return indexes.remember(scopeOf(db), () => loadCardIndex(db));
}

/**
 * A list derived from the catalogue (packs, rarities, a showcase), kept for CATALOGUE_TTL_MS or
 * until the catalogue changes on this instance. `name` must say what the list is and its inputs.
 */
export function rememberCatalogueList<T>(db: Db, name: string, load: () => Promise<T>): Promise<T> {
  return catalogueLists.remember(`${scopeOf(db)}:${name}`, load) as Promise<T>;
}

/**
 * Drops the index and every catalogue list of this database: the CSV import and the catalogue
 * seed call it after their transaction, whatever cards, packs or rarities they changed.
 */
export function invalidateCardIndex(db: Db): void {
  indexes.delete(scopeOf(db));
  catalogueLists.clear(`${scopeOf(db)}:`);
}
