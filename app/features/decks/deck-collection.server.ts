import type { Db } from "../../db/client.server";
import { hasCollection, needsAgainst, needsAgainstCollection, type NeedsAgainstCollection } from "../collection/needs.server";
import { ownedCounts } from "../collection/collection.server";
import { addWantedCards, countWantedChange, type WantedCardsAdded } from "../notifications/want-list.server";
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
 * is one change).
 */
export async function addMissingDeckCardsToWants(db: Db, userId: string, slug: string): Promise<WantedCardsAdded> {
  const deck = await getDeck(db, slug);
  if (!deck) throw new DeckError("not_found");
  const state = await deckAgainstCollection(db, userId, deck);
  if (!state) throw new DeckError("no_collection");
  await countWantedChange(db, userId);
  return addWantedCards(db, userId, state.cards.filter((c) => c.missing > 0).map((c) => c.cardId));
}

/**
 * The public decks the player can build with at most `maxMissing` copies missing (0: 今作れるデッキ),
 * or null when they have no collection. Every public deck's list (kept for everyone) against the
 * player's owned counts (one read), in memory.
 */
export async function deckIdsWithinMissing(db: Db, userId: string, maxMissing: number): Promise<string[] | null> {
  const [needs, owned] = await Promise.all([publicDeckNeeds(db), ownedCounts(db, userId)]);
  if (!owned.size) return null;
  return [...needs].filter(([, cards]) => needsAgainst(cards, owned).missing <= maxMissing).map(([deckId]) => deckId);
}

/**
 * /deck-recipes for a signed-in player: whether they have a collection (the filter is offered
 * only then) and, with a filter chosen, the decks it lets through (null: no filter applies).
 */
export async function deckListCollectionFilter(db: Db, userId: string, maxMissing: number | null): Promise<{ hasCollection: boolean; deckIds: string[] | null }> {
  if (maxMissing === null) return { hasCollection: await hasCollection(db, userId), deckIds: null };
  const deckIds = await deckIdsWithinMissing(db, userId, maxMissing);
  return { hasCollection: deckIds !== null, deckIds };
}
