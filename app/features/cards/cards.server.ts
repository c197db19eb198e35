import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { cardPacks, cards, packs, rarities } from "../../db/schema/index";

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
