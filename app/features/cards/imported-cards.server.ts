import { and, asc, count, eq, ilike, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { articles, cardPacks, cards, chatRooms, collectionCards, deckCards, decks, tradeOfferCards, wantedCards } from "#app/db/schema/index.ts";
import { rarityFromSpelling } from "#app/lib/rarity.ts";
import { invalidateCardIndex } from "./card-index.server";
import { cardSearchText } from "./catalogue.server";
import { CardError } from "./errors";
import { translate } from "#app/lib/i18n.tsx";
import { cardAdminMessages, type CardAdminMessageKey } from "./admin-messages";

/**
 * Cards registered by the admin's CSV import (not from the catalogue): listed per pack, edited and
 * deleted from カード管理. A card something points at (an offer, a want list, a deck, a card block
 * in a text, a chat room's named card) is never deleted: the refusal names what holds it.
 */
export type ImportedCard = { id: string; packId: string; name: string; nameEn: string; rarity: string; imageUrl: string; number: number | null };

export async function listImportedCards(db: Db, packId?: string): Promise<ImportedCard[]> {
  return db
    .select({ id: cards.id, packId: sql<string>`${cards.importPackId}`, name: cards.name, nameEn: cards.nameEn, rarity: cards.rarity, imageUrl: cards.imageUrl, number: cards.number })
    .from(cards)
    .where(packId ? eq(cards.importPackId, packId) : isNotNull(cards.importPackId))
    .orderBy(asc(cards.importPackId), asc(cards.number), asc(cards.id))
    .limit(2000);
}

async function importedCard(db: Db, cardId: string) {
  const [card] = await db.select({ id: cards.id, name: cards.name, nameEn: cards.nameEn, importPackId: cards.importPackId }).from(cards).where(eq(cards.id, cardId));
  if (!card) throw new CardError("not_found");
  if (!card.importPackId) throw new CardError("card_not_imported");
  return card;
}

export type ImportedCardEdit = { name: string; nameEn: string; rarity: string; imageUrl: string };

export async function updateImportedCard(db: Db, cardId: string, edit: ImportedCardEdit): Promise<ImportedCard> {
  const card = await importedCard(db, cardId);
  const rarity = rarityFromSpelling(edit.rarity);
  if (!rarity) throw new CardError("invalid_request");
  await db
    .update(cards)
    .set({ name: edit.name, nameEn: edit.nameEn, rarity, imageUrl: edit.imageUrl, searchText: cardSearchText(edit.name, edit.nameEn || edit.name) })
    .where(eq(cards.id, card.id));
  invalidateCardIndex(db);
  const [updated] = (await listImportedCards(db, card.importPackId!)).filter((c) => c.id === card.id);
  return updated;
}

/** What holds a card, by the message key that names it (empty: nothing does). */
export async function cardUses(db: Db, cardId: string): Promise<CardAdminMessageKey[]> {
  // A card block is [[card:ID]] as typed, the full-width form included (content/format).
  const block = or(ilike(articles.source, `%card:${cardId}]]%`), ilike(articles.source, `%card：${cardId}%`));
  const deckBlock = or(ilike(decks.description, `%card:${cardId}]]%`), ilike(decks.description, `%card：${cardId}%`));
  const [[offers], [wants], [inDecks], [inArticles], [inDeckTexts], [rooms], [collections]] = await Promise.all([
    db.select({ n: count() }).from(tradeOfferCards).where(eq(tradeOfferCards.cardId, cardId)),
    db.select({ n: count() }).from(wantedCards).where(eq(wantedCards.cardId, cardId)),
    db.select({ n: count() }).from(deckCards).where(eq(deckCards.cardId, cardId)),
    db.select({ n: count() }).from(articles).where(block),
    db.select({ n: count() }).from(decks).where(deckBlock),
    db.select({ n: count() }).from(chatRooms).where(eq(chatRooms.chosenCardId, cardId)),
    db.select({ n: count() }).from(collectionCards).where(eq(collectionCards.cardId, cardId)),
  ]);
  const uses: CardAdminMessageKey[] = [];
  if (offers.n) uses.push("usesOffers");
  if (wants.n) uses.push("usesWants");
  if (inDecks.n) uses.push("usesDecks");
  if (inArticles.n || inDeckTexts.n) uses.push("usesContent");
  if (rooms.n) uses.push("usesRooms");
  // Deleting it would take it out of players' collections (the rows cascade): refused like the rest.
  if (collections.n) uses.push("usesCollections");
  return uses;
}

/** Deletes an imported card nothing refers to; a referenced one is refused (409) naming why. */
export async function deleteImportedCard(db: Db, cardId: string): Promise<void> {
  const card = await importedCard(db, cardId);
  await db.transaction(async (tx) => {
    const uses = await cardUses(tx as unknown as Db, card.id);
    if (uses.length) throw new CardError("card_referenced", { name: card.name, uses: uses.map((key) => translate(cardAdminMessages, "ja", key)).join("・") });
    await tx.delete(cardPacks).where(eq(cardPacks.cardId, card.id));
    await tx.delete(cards).where(and(eq(cards.id, card.id), isNotNull(cards.importPackId)));
  });
  invalidateCardIndex(db);
}
