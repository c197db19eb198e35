import type { Db } from "../db/client.server";
import { deckAgainstCollection } from "../features/decks/deck-collection.server";
import { getDeck } from "../features/decks/decks.server";
import {
  CANDIDATE_LIMIT,
  listTradeCandidates,
  listTradeCandidatesWanting,
  tradeCandidateWith,
  type CandidatesResult,
  type TradeCandidate,
} from "../features/trade-candidates/trade-candidates.server";

export type TradeCandidatesPage = CandidatesResult & {
  limit: number;
  /** `with`: that player as my candidate, first; null when they are not one now; absent when not asked. */
  focus?: TradeCandidate | null;
  /**
   * `deck`: the candidates for that deck's missing cards in place of my usual wants (its name,
   * slug and how many copies I lack); null when no public deck has that name; absent when not asked.
   */
  deck?: { slug: string; name: string; missing: number } | null;
};

/**
 * /collection/trades: my トレード候補 (docs/decisions/041), or those for one public deck's missing
 * cards (`deck`), with one player first (`with`, a friend-board post's link).
 */
export async function tradeCandidatesPage(db: Db, userId: string, input: { with?: string; deck?: string }): Promise<TradeCandidatesPage> {
  const focusing = input.with ? tradeCandidateWith(db, userId, input.with) : undefined;
  if (input.deck) {
    const deck = await getDeck(db, input.deck);
    if (deck) {
      const state = await deckAgainstCollection(db, userId, deck);
      // No collection yet: every card of the deck is missing (the finder then says to opt in).
      const missing = state ? state.cards.filter((c) => c.missing > 0).map((c) => c.cardId) : deck.cards.map((c) => c.cardId);
      const [found, focus] = await Promise.all([listTradeCandidatesWanting(db, userId, missing), focusing]);
      return { ...found, limit: CANDIDATE_LIMIT, focus, deck: { slug: deck.slug, name: deck.name, missing: state?.missing ?? deck.cards.reduce((n, c) => n + c.count, 0) } };
    }
    const [found, focus] = await Promise.all([listTradeCandidates(db, userId), focusing]);
    return { ...found, limit: CANDIDATE_LIMIT, focus, deck: null };
  }
  const [found, focus] = await Promise.all([listTradeCandidates(db, userId), focusing]);
  return { ...found, limit: CANDIDATE_LIMIT, focus };
}
