import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, packs, rarities } from "#app/db/schema/index.ts";
import { foldForSearch } from "#app/lib/search-text.ts";
import { CardError } from "./errors";
import { CARD_COLUMNS, PACK_COLUMNS, cardFaceOf, cardIndex, compareCards, rememberCatalogueList, type IndexedCard, type IndexedPack } from "./card-index.server";
import { isExcludedAsRare } from "#app/lib/rarity.ts";
import type { CardListItem, CardSearchResult } from "./types";

export type { CardListItem, CardSearchResult } from "./types";

export type PackSummary = {
  id: string;
  nameJa: string;
  nameEn: string;
  setCode: string;
  releaseDate: string;
  cardCount: number;
};

export type CardSummary = CardListItem & {
  packId: string;
  packName: string;
};

/** Every pack, newest set first, with how many cards it holds (kept until the catalogue changes). */
export function listPacks(db: Db): Promise<PackSummary[]> {
  return rememberCatalogueList(db, "packs", () => loadPacks(db));
}

async function loadPacks(db: Db): Promise<PackSummary[]> {
  return db
    .select({
      ...PACK_COLUMNS,
      cardCount: sql<number>`(select count(*)::int from ${cardPacks} where ${cardPacks.packId} = ${packs.id})`,
    })
    .from(packs)
    .orderBy(asc(packs.sortOrder));
}

/** The rarest cards of one pack, for showcases such as the home page (kept until the catalogue changes). */
export function showcaseCards(db: Db, packId: string, limit: number): Promise<CardSummary[]> {
  return rememberCatalogueList(db, `showcase:${packId}:${limit}`, () => loadShowcase(db, packId, limit));
}

async function loadShowcase(db: Db, packId: string, limit: number): Promise<CardSummary[]> {
  return db
    .select({
      ...CARD_COLUMNS,
      packId: packs.id,
      packName: packs.nameJa,
    })
    .from(cardPacks)
    .innerJoin(cards, eq(cards.id, cardPacks.cardId))
    .innerJoin(packs, eq(packs.id, cardPacks.packId))
    .leftJoin(rarities, eq(rarities.code, cards.rarity))
    .where(eq(cardPacks.packId, packId))
    .orderBy(desc(sql`coalesce(${rarities.rank}, 0)`), asc(cards.number), asc(cards.id))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Browsing and search (docs/product-rules.md §5 "card search by pack", §7 global search)
// ---------------------------------------------------------------------------------------------

/** Longest folded query we match: a card name is never longer, and a 10,000-character query must cost nothing. */
export const MAX_QUERY_LENGTH = 40;
const MAX_QUERY_TERMS = 4;
export const DEFAULT_PAGE_SIZE = 36;
export const MAX_PAGE_SIZE = 100;
// docs/product-rules.md §7/§9: global card search returns at most 10 per pack and 20 overall.
export const SEARCH_PER_PACK = 10;
export const SEARCH_TOTAL = 20;

/** The folded words of a query, each matched anywhere in a card's Japanese or English name. */
export function searchTerms(query: string | null | undefined): string[] {
  if (!query) return [];
  const folded = foldForSearch(query.slice(0, MAX_QUERY_LENGTH * 4)).slice(0, MAX_QUERY_LENGTH);
  return folded.split(" ").filter(Boolean).slice(0, MAX_QUERY_TERMS);
}

/** True when every term occurs in the folded name: a literal match, so `%`, `_` and `\\` are plain characters. */
export function matchesAllTerms(searchText: string, terms: string[]): boolean {
  return terms.every((term) => searchText.includes(term));
}

export type PackInfo = { id: string; nameJa: string; nameEn: string; setCode: string; releaseDate: string };

// docs/product-rules.md §3 gives two id sets for the same nine packs; we store set B and accept set A too.
const PACK_ALIASES: Record<string, string> = {
  picachu: "pikachu",
  chalizard: "charizard",
  mew: "phantom",
  arceus: "memorial",
  shininghigh: "shining-high",
};

/** The stored pack id for an id of either docs/product-rules.md §3 set (`picachu` → `pikachu`). */
export function canonicalPackId(packId: string): string {
  const id = packId.trim().toLowerCase();
  return PACK_ALIASES[id] ?? id;
}

export async function getPack(db: Db, packId: string): Promise<PackInfo | null> {
  const [pack] = await db
    .select({ id: packs.id, nameJa: packs.nameJa, nameEn: packs.nameEn, setCode: packs.setCode, releaseDate: packs.releaseDate })
    .from(packs)
    .where(eq(packs.id, canonicalPackId(packId)));
  return pack ?? null;
}

/** docs/product-rules.md §5: in a promo pack only cards whose rarity contains PROMO are kept. */
export function isPromoPack(pack: Pick<PackInfo, "id" | "setCode">): boolean {
  return pack.id === "promo" || pack.setCode.toUpperCase().startsWith("PROMO");
}


type CursorKey = { rank: number; number: number; id: string };

function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.rank, key.number, key.id])).toString("base64url");
}

function decodeCursor(cursor: string): CursorKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      Number.isInteger(value[0]) &&
      Number.isInteger(value[1]) &&
      typeof value[2] === "string" &&
      value[2].length <= 200
    ) {
      return { rank: value[0], number: value[1], id: value[2] };
    }
  } catch {
    // fall through
  }
  throw new CardError("invalid_cursor");
}

export type CardListQuery = {
  packId: string;
  q?: string | null;
  /** One display rarity (◆ … 👑, PROMO); undefined for all. */
  rarity?: string | null;
  excludeRare?: boolean;
  limit?: number;
  cursor?: string | null;
};


export type CardListPage = {
  pack: PackInfo;
  cards: CardListItem[];
  /** How many cards match in all (every page). */
  total: number;
  nextCursor: string | null;
};

/**
 * One page of a pack's cards, highest rarity first then by card number (docs/product-rules.md §9), with the
 * rules of docs/product-rules.md §5. Throws CardError "unknown_pack_name" for a pack that does not exist.
 */
export async function listCards(db: Db, query: CardListQuery): Promise<CardListPage> {
  const index = await cardIndex(db);
  const indexed = index.packs.get(canonicalPackId(query.packId));
  if (!indexed) throw new CardError("unknown_pack_name");
  const pack: PackInfo = { id: indexed.id, nameJa: indexed.nameJa, nameEn: indexed.nameEn, setCode: indexed.setCode, releaseDate: indexed.releaseDate };
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const terms = searchTerms(query.q);
  const promoOnly = isPromoPack(pack);
  const matching = (index.byPack.get(pack.id) ?? []).filter(
    (card) =>
      (!promoOnly || card.rarity.includes("PROMO")) &&
      (!query.excludeRare || !isExcludedAsRare(card.rarity)) &&
      (!query.rarity || card.rarity === query.rarity) &&
      matchesAllTerms(card.searchText, terms),
  );
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  // The list is sorted: the page starts at the first card after the cursor's key.
  const start = after ? matching.findIndex((card) => compareCards(card, after) > 0) : 0;
  const page = start < 0 ? [] : matching.slice(start, start + limit);
  const last = page[page.length - 1];
  const hasMore = start >= 0 && start + limit < matching.length;
  return {
    pack,
    cards: page.map(toListItem),
    total: matching.length,
    nextCursor: hasMore && last ? encodeCursor({ rank: last.rank, number: last.number ?? 0, id: last.id }) : null,
  };
}

const toListItem = cardFaceOf;

export type CardSearchOptions = {
  /** Only rarities whose `rarities.tradeable` is true (the trade board's pickers). */
  tradeableOnly?: boolean;
  /** Pack ids to leave out; a card found only in these packs is not returned. */
  excludePacks?: string[];
  /** Keeps only the cards it accepts (the trade picker: what the trade rules allow now or will open). */
  accept?: (card: { id: string; rarity: string; packIds: readonly string[] }) => boolean;
};


/**
 * Global search (docs/product-rules.md §7): every pack at once, at most 10 cards per pack and 20 in all.
 * A card printed in several packs is returned once, under its newest pack. Names starting
 * with the query come first, then newer packs, then higher rarities.
 */
export async function searchCards(db: Db, query: string, options: CardSearchOptions = {}): Promise<CardSearchResult[]> {
  const terms = searchTerms(query);
  if (!terms.length) return [];
  const index = await cardIndex(db);
  const excluded = new Set((options.excludePacks ?? []).filter(Boolean).slice(0, 50));
  type Hit = { card: IndexedCard; pack: IndexedPack; prefix: number };
  const perPack = new Map<string, Hit[]>();
  for (const card of index.cards) {
    if (options.tradeableOnly && !card.tradeable) continue;
    if (!matchesAllTerms(card.searchText, terms)) continue;
    if (options.accept && !options.accept(card)) continue;
    const packId = card.packIds.find((id) => !excluded.has(id));
    const pack = packId ? index.packs.get(packId) : undefined;
    if (!pack) continue;
    const hit = { card, pack, prefix: card.searchText.startsWith(terms[0]) ? 0 : 1 };
    const list = perPack.get(pack.id);
    if (list) list.push(hit);
    else perPack.set(pack.id, [hit]);
  }
  const byRelevance = (a: Hit, b: Hit) => a.prefix - b.prefix || compareCards(a.card, b.card);
  const hits = [...perPack.values()].flatMap((list) => list.sort(byRelevance).slice(0, SEARCH_PER_PACK));
  hits.sort((a, b) => a.prefix - b.prefix || a.pack.sortOrder - b.pack.sortOrder || compareCards(a.card, b.card));
  return hits.slice(0, SEARCH_TOTAL).map(({ card, pack }) => ({
    ...toListItem(card),
    packId: pack.id,
    packName: pack.nameJa,
    packNameEn: pack.nameEn,
  }));
}

export type CardDetail = CardListItem & {
  nameReading: string;
  weakness: string | null;
  retreatCost: number | null;
  /** Each attack's energy cost and damage; null when no source describes the card. */
  attacks: { cost: string[]; damage: number; suffix?: "+" | "x" }[] | null;
  /** Shinedust each side pays to trade a card of this rarity (vendored rarities data); null when unknown. */
  tradeCost: number | null;
  rarityLabelJa: string | null;
  rarityLabelEn: string | null;
  tradeable: boolean;
  packs: { id: string; nameJa: string; nameEn: string }[];
};

/** A card with every pack it appears in (newest first), or null. */
export async function getCard(db: Db, cardId: string): Promise<CardDetail | null> {
  const [card] = await db
    .select({
      ...CARD_COLUMNS,
      nameReading: cards.nameReading,
      weakness: cards.weakness,
      retreatCost: cards.retreatCost,
      attacks: cards.attacks,
      tradeCost: rarities.tradeCost,
      rarityLabelJa: rarities.labelJa,
      rarityLabelEn: rarities.labelEn,
      tradeable: sql<boolean>`coalesce(${rarities.tradeable}, false)`,
    })
    .from(cards)
    .leftJoin(rarities, eq(rarities.code, cards.rarity))
    .where(eq(cards.id, cardId));
  if (!card) return null;
  const cardPackRows = await db
    .select({ id: packs.id, nameJa: packs.nameJa, nameEn: packs.nameEn })
    .from(cardPacks)
    .innerJoin(packs, eq(packs.id, cardPacks.packId))
    .where(eq(cardPacks.cardId, cardId))
    .orderBy(asc(packs.sortOrder));
  return { ...card, packs: cardPackRows };
}

/**
 * getCard for the card page: a card's catalogue facts change only with the catalogue (an import,
 * the seed, stored art), which clears the catalogue lists, so each card is read once per
 * CATALOGUE_TTL_MS instead of twice per request. An unknown id is kept as null the same way.
 */
export function rememberCard(db: Db, cardId: string): Promise<CardDetail | null> {
  return rememberCatalogueList(db, `card:${cardId}`, () => getCard(db, cardId));
}

/** docs/product-rules.md §7 "card lookup by pack and card id": null unless the card is in that pack. */
export async function getCardInPack(db: Db, packId: string, cardId: string): Promise<CardDetail | null> {
  const card = await getCard(db, cardId);
  return card && card.packs.some((p) => p.id === packId) ? card : null;
}

/**
 * Shinedust (シャインダスト) each side pays to trade a card, per rarity (display code → cost),
 * from the vendored rarities data; a rarity the data prices at nothing is 0, one it names no
 * price for is absent. Kept with the catalogue lists (it changes with the catalogue only).
 */
export function rarityTradeCosts(db: Db): Promise<Record<string, number>> {
  return rememberCatalogueList(db, "trade-costs", async () => {
    const rows = await db.select({ code: rarities.code, tradeCost: rarities.tradeCost }).from(rarities);
    return Object.fromEntries(rows.filter((r) => r.tradeCost !== null).map((r) => [r.code, r.tradeCost as number]));
  });
}
