import { and, asc, count, desc, eq, like, lte, ne, notInArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { cardPacks, cards, packs, rarities } from "../../db/schema/index";
import { foldForSearch } from "../../lib/search-text";
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

export type CardSummary = {
  id: string;
  name: string;
  nameEn: string;
  rarity: string;
  imageUrl: string;
  packId: string;
  packName: string;
};

/** Every pack, newest set first, with how many cards it holds. */
export async function listPacks(db: Db): Promise<PackSummary[]> {
  return db
    .select({
      id: packs.id,
      nameJa: packs.nameJa,
      nameEn: packs.nameEn,
      setCode: packs.setCode,
      releaseDate: packs.releaseDate,
      cardCount: sql<number>`(select count(*)::int from ${cardPacks} where ${cardPacks.packId} = ${packs.id})`,
    })
    .from(packs)
    .orderBy(asc(packs.sortOrder));
}

/** The rarest cards of one pack, for showcases such as the home page. */
export async function showcaseCards(db: Db, packId: string, limit: number): Promise<CardSummary[]> {
  return db
    .select({
      id: cards.id,
      name: cards.name,
      nameEn: cards.nameEn,
      rarity: cards.rarity,
      imageUrl: cards.imageUrl,
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
// Browsing and search (SPEC.md §5 "card search by pack", §7 global search)
// ---------------------------------------------------------------------------------------------

/** Longest folded query we match: a card name is never longer, and a 10,000-character query must cost nothing. */
export const MAX_QUERY_LENGTH = 40;
const MAX_QUERY_TERMS = 4;
export const DEFAULT_PAGE_SIZE = 60;
export const MAX_PAGE_SIZE = 100;
// SPEC.md §7/§9: global card search returns at most 10 per pack and 20 overall.
export const SEARCH_PER_PACK = 10;
export const SEARCH_TOTAL = 20;

/** The folded words of a query, each matched anywhere in a card's Japanese or English name. */
export function searchTerms(query: string | null | undefined): string[] {
  if (!query) return [];
  const folded = foldForSearch(query.slice(0, MAX_QUERY_LENGTH * 4)).slice(0, MAX_QUERY_LENGTH);
  return folded.split(" ").filter(Boolean).slice(0, MAX_QUERY_TERMS);
}

/** `%`, `_` and `\` in user input are literal characters, not LIKE wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

// A contains-match on the folded name. Three characters or more use the pg_trgm GIN index;
// one- and two-character queries scan ~3,300 short strings, which is cheaper than any index
// (docs/decisions/003-card-search.md).
function matchesTerms(terms: string[]): SQL | undefined {
  if (!terms.length) return undefined;
  return and(...terms.map((term) => sql`${cards.searchText} like ${`%${escapeLike(term)}%`} escape '\\'`));
}

const rankExpr = sql<number>`coalesce(${rarities.rank}, 0)`;
const numberExpr = sql<number>`coalesce(${cards.number}, 0)`;

// SPEC.md §5: cards without a name or a rarity are never listed.
const listable = and(ne(cards.name, ""), ne(cards.rarity, ""));
// SPEC.md §5: the flag drops ☆☆ (also `??`, shown as ☆☆), ☆☆☆, PROMO and the crown.
const notRare = sql`not (${cards.rarity} in ('☆☆', '☆☆☆', '??') or ${cards.rarity} like '%PROMO%' or ${cards.rarity} like '%👑%' or lower(${cards.rarity}) like '%crown%')`;

export type PackInfo = { id: string; nameJa: string; nameEn: string; setCode: string; releaseDate: string };

export async function getPack(db: Db, packId: string): Promise<PackInfo | null> {
  const [pack] = await db
    .select({ id: packs.id, nameJa: packs.nameJa, nameEn: packs.nameEn, setCode: packs.setCode, releaseDate: packs.releaseDate })
    .from(packs)
    .where(eq(packs.id, packId));
  return pack ?? null;
}

/** SPEC.md §5: in a promo pack only cards whose rarity contains PROMO are kept. */
export function isPromoPack(pack: Pick<PackInfo, "id" | "setCode">): boolean {
  return pack.id === "promo" || pack.setCode.toUpperCase().startsWith("PROMO");
}

export class UnknownPackError extends Error {
  constructor(readonly packId: string) {
    super("Unknown pack name");
  }
}

export class InvalidCursorError extends Error {
  constructor() {
    super("Invalid cursor");
  }
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
  throw new InvalidCursorError();
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
 * One page of a pack's cards, highest rarity first then by card number (SPEC.md §9), with the
 * rules of SPEC.md §5. Throws UnknownPackError for a pack that does not exist.
 */
export async function listCards(db: Db, query: CardListQuery): Promise<CardListPage> {
  const pack = await getPack(db, query.packId);
  if (!pack) throw new UnknownPackError(query.packId);
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const filters = [
    eq(cardPacks.packId, pack.id),
    listable,
    isPromoPack(pack) ? like(cards.rarity, "%PROMO%") : undefined,
    query.excludeRare ? notRare : undefined,
    query.rarity ? eq(cards.rarity, query.rarity) : undefined,
    matchesTerms(searchTerms(query.q)),
  ];
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const keyset = after
    ? sql`(${rankExpr} < ${after.rank} or (${rankExpr} = ${after.rank} and (${numberExpr} > ${after.number} or (${numberExpr} = ${after.number} and ${cards.id} > ${after.id}))))`
    : undefined;

  const base = db
    .select({
      id: cards.id,
      name: cards.name,
      nameEn: cards.nameEn,
      rarity: cards.rarity,
      imageUrl: cards.imageUrl,
      number: cards.number,
      rank: rankExpr,
    })
    .from(cardPacks)
    .innerJoin(cards, eq(cards.id, cardPacks.cardId))
    .leftJoin(rarities, eq(rarities.code, cards.rarity));
  const [rows, [{ total }]] = await Promise.all([
    base
      .where(and(...filters, keyset))
      .orderBy(desc(rankExpr), asc(numberExpr), asc(cards.id))
      .limit(limit + 1),
    db
      .select({ total: count() })
      .from(cardPacks)
      .innerJoin(cards, eq(cards.id, cardPacks.cardId))
      .where(and(...filters)),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    pack,
    cards: page.map(({ rank: _rank, ...card }) => card),
    total,
    nextCursor: rows.length > limit && last ? encodeCursor({ rank: last.rank, number: last.number ?? 0, id: last.id }) : null,
  };
}

export type CardSearchOptions = {
  /** Only rarities whose `rarities.tradeable` is true (the trade board's pickers). */
  tradeableOnly?: boolean;
  /** Pack ids to leave out; a card found only in these packs is not returned. */
  excludePacks?: string[];
};


/**
 * Global search (SPEC.md §7): every pack at once, at most 10 cards per pack and 20 in all.
 * A card printed in several packs is returned once, under its newest pack. Names starting
 * with the query come first, then newer packs, then higher rarities.
 */
export async function searchCards(db: Db, query: string, options: CardSearchOptions = {}): Promise<CardSearchResult[]> {
  const terms = searchTerms(query);
  if (!terms.length) return [];
  const excluded = (options.excludePacks ?? []).filter(Boolean).slice(0, 50);
  const prefix = sql<number>`case when ${cards.searchText} like ${`${escapeLike(terms[0])}%`} escape '\\' then 0 else 1 end`;
  const matched = db.$with("matched").as(
    db
      .select({
        id: cards.id,
        name: cards.name,
        nameEn: cards.nameEn,
        rarity: cards.rarity,
        imageUrl: cards.imageUrl,
        number: cards.number,
        rank: sql<number>`${rankExpr}`.as("rank"),
        prefix: sql<number>`${prefix}`.as("prefix"),
        packId: sql<string>`${packs.id}`.as("pack_id"),
        packName: sql<string>`${packs.nameJa}`.as("pack_name"),
        packNameEn: sql<string>`${packs.nameEn}`.as("pack_name_en"),
        packOrder: sql<number>`${packs.sortOrder}`.as("pack_order"),
        packPick: sql<number>`row_number() over (partition by ${cards.id} order by ${packs.sortOrder})`.as("pack_pick"),
      })
      .from(cards)
      .innerJoin(cardPacks, eq(cardPacks.cardId, cards.id))
      .innerJoin(packs, eq(packs.id, cardPacks.packId))
      .leftJoin(rarities, eq(rarities.code, cards.rarity))
      .where(
        and(
          listable,
          matchesTerms(terms),
          options.tradeableOnly ? eq(rarities.tradeable, true) : undefined,
          excluded.length ? notInArray(packs.id, excluded) : undefined,
        ),
      ),
  );
  const ranked = db.$with("ranked").as(
    db
      .with(matched)
      .select({
        id: matched.id,
        name: matched.name,
        nameEn: matched.nameEn,
        rarity: matched.rarity,
        imageUrl: matched.imageUrl,
        number: matched.number,
        rank: matched.rank,
        prefix: matched.prefix,
        packId: matched.packId,
        packName: matched.packName,
        packNameEn: matched.packNameEn,
        packOrder: matched.packOrder,
        inPack: sql<number>`row_number() over (partition by ${matched.packId} order by ${matched.prefix}, ${matched.rank} desc, ${matched.number}, ${matched.id})`.as("in_pack"),
      })
      .from(matched)
      .where(eq(matched.packPick, 1)),
  );
  const rows = await db
    .with(ranked)
    .select({
      id: ranked.id,
      name: ranked.name,
      nameEn: ranked.nameEn,
      rarity: ranked.rarity,
      imageUrl: ranked.imageUrl,
      number: ranked.number,
      packId: ranked.packId,
      packName: ranked.packName,
      packNameEn: ranked.packNameEn,
    })
    .from(ranked)
    .where(lte(ranked.inPack, SEARCH_PER_PACK))
    .orderBy(asc(ranked.prefix), asc(ranked.packOrder), desc(ranked.rank), asc(ranked.number), asc(ranked.id))
    .limit(SEARCH_TOTAL);
  return rows;
}

export type CardDetail = CardListItem & {
  setCode: string | null;
  rarityLabelJa: string | null;
  rarityLabelEn: string | null;
  tradeable: boolean;
  packs: { id: string; nameJa: string; nameEn: string }[];
};

/** A card with every pack it appears in (newest first), or null. */
export async function getCard(db: Db, cardId: string): Promise<CardDetail | null> {
  const [card] = await db
    .select({
      id: cards.id,
      name: cards.name,
      nameEn: cards.nameEn,
      rarity: cards.rarity,
      imageUrl: cards.imageUrl,
      number: cards.number,
      setCode: cards.setCode,
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

/** SPEC.md §7 "card lookup by pack and card id": null unless the card is in that pack. */
export async function getCardInPack(db: Db, packId: string, cardId: string): Promise<CardDetail | null> {
  const card = await getCard(db, cardId);
  return card && card.packs.some((p) => p.id === packId) ? card : null;
}
