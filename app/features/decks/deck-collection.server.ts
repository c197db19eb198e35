import type { Db } from "#app/db/client.server.ts";
import { needsAgainst, needsAgainstCollection, type NeedsAgainstCollection } from "#app/features/collection/needs.server.ts";
import { ownedCounts } from "#app/features/collection/collection.server.ts";
import { addWantedCards, countWantedChange, type WantedCardsAdded } from "#app/features/notifications/want-list.server.ts";
import { getDeck, publicDeckNeeds } from "./decks.server";
import { DeckError } from "./errors";
import type { DeckDetail } from "./types";

/** A deck's cards against the signed-in player's collection; null when they have none yet. */
export function deckAgainstCollection(db: Db, userId: string, deck: Pick<DeckDetail, "cards">): Promise<NeedsAgainstCollection | null> {
  return needsAgainstCollection(db, userId, deck.cards.map((c) => ({ cardId: c.cardId, count: c.count })));
}

/**
 * 足りないカードをほしいカードに追加: the deck's cards the player lacks go on their ほしいカード list
 * through the want list's own service (its cap, its trade rule, its per-minute limit: one press
 * is one change). `includePrivate` is an admin's preview of a deck that is not public, as on the page.
 */
export async function addMissingDeckCardsToWants(db: Db, userId: string, slug: string, options: { includePrivate?: boolean } = {}): Promise<WantedCardsAdded> {
  const deck = await getDeck(db, slug, options);
  if (!deck) throw new DeckError("not_found");
  const state = await deckAgainstCollection(db, userId, deck);
  if (!state) throw new DeckError("no_collection");
  await countWantedChange(db, userId);
  return addWantedCards(db, userId, state.cards.filter((c) => c.missing > 0).map((c) => c.cardId));
}

/**
 * /deck-recipes for a signed-in player: whether they have a collection (the filter is offered
 * only then), the copies each public deck lacks, and, with a filter chosen (at most `maxMissing`
 * missing; 0: 今作れるデッキ), the decks it lets through (null: no filter applies). Every public
 * deck's list (kept for everyone) against the player's owned counts (one read), in memory.
 */
export async function deckListCollectionFilter(
  db: Db,
  userId: string,
  maxMissing: number | null,
): Promise<{ hasCollection: boolean; missingByDeck: Map<string, number>; deckIds: string[] | null }> {
  const [needs, owned] = await Promise.all([publicDeckNeeds(db), ownedCounts(db, userId)]);
  const missingByDeck = new Map<string, number>();
  if (!owned.size) return { hasCollection: false, missingByDeck, deckIds: null };
  for (const [deckId, cards] of needs) missingByDeck.set(deckId, needsAgainst(cards, owned).missing);
  const deckIds = maxMissing === null ? null : [...missingByDeck].filter(([, missing]) => missing <= maxMissing).map(([deckId]) => deckId);
  return { hasCollection: true, missingByDeck, deckIds };
}
