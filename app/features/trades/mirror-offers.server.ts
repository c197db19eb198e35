import { and, eq, inArray, ne } from "drizzle-orm";
import { openOfferWhere } from "#app/db/open-offers.ts";
import type { Db } from "#app/db/client.server.ts";
import { cards, chatRooms, tradeOfferCards, tradeOffers } from "#app/db/schema/index.ts";
import { TradeError } from "./errors";

export type MirrorOffer = {
  id: string;
  give: { cardId: string; name: string; rarity: string }[];
  want: { cardId: string; name: string; rarity: string }[];
};

/**
 * After a trade completes, the user's own open offers it made pointless: for the partner, an
 * offer that gives what they just gave and wants what they just got (the mirror image of the
 * traded offer); for the owner, another offer of theirs for the same swap. The room page offers to
 * close them. Only participants of a completed room get an answer (others: not_found).
 */
export async function mirrorOffersAfterTrade(db: Db, roomId: string, userId: string): Promise<MirrorOffer[]> {
  const [room] = await db
    .select({ offerId: chatRooms.offerId, ownerId: chatRooms.ownerId, partnerId: chatRooms.partnerId, completedAt: chatRooms.completedAt })
    .from(chatRooms)
    .where(eq(chatRooms.id, roomId));
  if (!room || (room.ownerId !== userId && room.partnerId !== userId)) throw new TradeError("not_found");
  if (!room.completedAt) return [];
  const traded = await db.select({ cardId: tradeOfferCards.cardId, side: tradeOfferCards.side }).from(tradeOfferCards).where(eq(tradeOfferCards.offerId, room.offerId));
  const tradedGive = new Set(traded.filter((c) => c.side === "give").map((c) => c.cardId));
  const tradedWant = new Set(traded.filter((c) => c.side === "want").map((c) => c.cardId));
  // What this user gave away and what they wanted, seen from their side of the trade.
  const gave = room.ownerId === userId ? tradedGive : tradedWant;
  const got = room.ownerId === userId ? tradedWant : tradedGive;

  const own = await db
    .select({ id: tradeOffers.id })
    .from(tradeOffers)
    .where(and(eq(tradeOffers.ownerId, userId), openOfferWhere(), ne(tradeOffers.id, room.offerId)));
  if (!own.length) return [];
  const rows = await db
    .select({ offerId: tradeOfferCards.offerId, cardId: tradeOfferCards.cardId, side: tradeOfferCards.side, name: cards.name, rarity: cards.rarity })
    .from(tradeOfferCards)
    .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
    .where(inArray(tradeOfferCards.offerId, own.map((o) => o.id)))
    .orderBy(tradeOfferCards.offerId, tradeOfferCards.side, tradeOfferCards.cardId);
  const byOffer = new Map<string, MirrorOffer>();
  for (const r of rows) {
    const offer = byOffer.get(r.offerId) ?? { id: r.offerId, give: [], want: [] };
    (r.side === "give" ? offer.give : offer.want).push({ cardId: r.cardId, name: r.name, rarity: r.rarity });
    byOffer.set(r.offerId, offer);
  }
  return own
    .map((o) => byOffer.get(o.id))
    .filter((o): o is MirrorOffer => Boolean(o))
    .filter((o) => o.give.some((c) => gave.has(c.cardId)) && o.want.some((c) => got.has(c.cardId)));
}
