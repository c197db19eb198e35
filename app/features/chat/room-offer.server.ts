import { asc, eq, inArray, sql } from "drizzle-orm";
import { CARD_COLUMNS } from "#app/features/cards/card-index.server.ts";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, packs, tradeOfferCards } from "#app/db/schema/index.ts";
import type { CardFace } from "#app/lib/card-face.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import type { RuleClosedCard } from "./protocol";

/** The offer a room is about, as the room page and the room list show it: each card's picture, side and count. */
export type OfferCard = Omit<CardFace, "id"> & { cardId: string; side: "give" | "want"; count: number; packName: string };
/** `giveAny` / `wantAny`: that side is 何でも可 and names no card (any card of the other side's rarities). */
export type RoomOffer = { id: string; ownerId: string; status: string; comment: string; giveAny: boolean; wantAny: boolean; cards: OfferCard[] };

/** Cards named for rooms' 何でも可 sides (chat_rooms.chosen_card_id), drawn like the offer's cards, by id. */
export async function namedCards(db: Db, cardIds: readonly string[]): Promise<Map<string, Omit<OfferCard, "side" | "count">>> {
  if (cardIds.length === 0) return new Map();
  const rows = await db
    .select({
      ...CARD_COLUMNS,
      packName: sql<string>`coalesce((select ${packs.nameJa} from ${cardPacks} join ${packs} on ${packs.id} = ${cardPacks.packId} where ${cardPacks.cardId} = ${cards.id} order by ${packs.sortOrder} limit 1), '')`,
    })
    .from(cards)
    .where(inArray(cards.id, [...new Set(cardIds)]));
  return new Map(rows.map(({ id, ...card }) => [id, { ...card, cardId: id }]));
}

/** The card named for a room's 何でも可 side, on that side; null until named (or when no side is 何でも可). */
export function chosenOfferCard(named: ReadonlyMap<string, Omit<OfferCard, "side" | "count">>, cardId: string | null, any: { giveAny: boolean; wantAny: boolean }): OfferCard | null {
  const card = cardId === null || !(any.giveAny || any.wantAny) ? undefined : named.get(cardId);
  return card ? { ...card, side: any.giveAny ? "give" : "want", count: 1 } : null;
}

/** chosenOfferCard for one room. */
export async function chosenCardOf(db: Db, cardId: string | null, any: { giveAny: boolean; wantAny: boolean }): Promise<OfferCard | null> {
  if (cardId === null || !(any.giveAny || any.wantAny)) return null;
  return chosenOfferCard(await namedCards(db, [cardId]), cardId, any);
}

export async function offerCards(db: Db, offerIds: string[]): Promise<Map<string, OfferCard[]>> {
  const result = new Map<string, OfferCard[]>();
  if (offerIds.length === 0) return result;
  const rows = await db
    .select({
      offerId: tradeOfferCards.offerId,
      cardId: tradeOfferCards.cardId,
      side: tradeOfferCards.side,
      count: tradeOfferCards.count,
      ...CARD_COLUMNS,
      packName: sql<string>`coalesce((select ${packs.nameJa} from ${cardPacks} join ${packs} on ${packs.id} = ${cardPacks.packId} where ${cardPacks.cardId} = ${cards.id} order by ${packs.sortOrder} limit 1), '')`,
    })
    .from(tradeOfferCards)
    .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
    .where(inArray(tradeOfferCards.offerId, offerIds))
    .orderBy(asc(tradeOfferCards.side), asc(cards.id));
  for (const r of rows) {
    const list = result.get(r.offerId) ?? [];
    const { offerId: _offerId, id: _id, side, ...card } = r;
    list.push({ ...card, side: side === "want" ? "want" : "give" });
    result.set(r.offerId, list);
  }
  return result;
}

/**
 * The offer's cards (and the card named for its 何でも可 side) the trade rules close at `at`: the board's question (offersClosedByRules asks
 * cardTradeability too), card by card, so the room can say which card and until when.
 */
export async function ruleClosedOfferCards(db: Db, offerId: string, at: Date = new Date(), chosenCardId: string | null = null): Promise<RuleClosedCard[]> {
  const rows = await db
    .select({ cardId: tradeOfferCards.cardId, name: cards.name })
    .from(tradeOfferCards)
    .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
    .where(eq(tradeOfferCards.offerId, offerId))
    .orderBy(asc(tradeOfferCards.side), asc(cards.id));
  // The card named for a 何でも可 side is traded as well: a rule closing it stops the steps too.
  if (chosenCardId !== null && !rows.some((row) => row.cardId === chosenCardId)) {
    const [chosen] = await db.select({ cardId: cards.id, name: cards.name }).from(cards).where(eq(cards.id, chosenCardId));
    if (chosen) rows.push(chosen);
  }
  if (rows.length === 0) return [];
  const states = await cardTradeability(db, rows.map((row) => row.cardId), at);
  return rows.flatMap(({ cardId, name }) => {
    const state = states.get(cardId);
    return state && !state.tradeable ? [{ cardId, name, until: state.until }] : [];
  });
}
