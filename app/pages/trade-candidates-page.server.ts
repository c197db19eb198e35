import type { Db } from "#app/db/client.server.ts";
import { deckAgainstCollection } from "#app/features/decks/deck-collection.server.ts";
import { getDeck } from "#app/features/decks/decks.server.ts";
import {
  CANDIDATE_LIMIT,
  listTradeCandidates,
  listTradeCandidatesWanting,
  tradeCandidateWith,
  type CandidatesResult,
  type TradeCandidate,
} from "#app/features/trade-candidates/trade-candidates.server.ts";

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
 * The cards a public deck still needs from me (my collection against its list; all of its cards
 * when I keep none), or null when no public deck has that slug or id.
 */
export async function deckWanting(db: Db, userId: string, slug: string): Promise<{ slug: string; name: string; missing: number; cards: string[] } | null> {
  const deck = await getDeck(db, slug);
  if (!deck) return null;
  const state = await deckAgainstCollection(db, userId, deck);
  if (!state) return { slug: deck.slug, name: deck.name, missing: deck.cards.reduce((n, c) => n + c.count, 0), cards: deck.cards.map((c) => c.cardId) };
  return { slug: deck.slug, name: deck.name, missing: state.missing, cards: state.cards.filter((c) => c.missing > 0).map((c) => c.cardId) };
}

/**
 * /collection/trades: my トレード候補 (docs/decisions/041), or those for one public deck's missing
 * cards (`deck`), with one player first (`with`, a friend-board post's link), under the same wants.
 */
export async function tradeCandidatesPage(db: Db, userId: string, input: { with?: string; deck?: string }): Promise<TradeCandidatesPage> {
  const deck = input.deck ? await deckWanting(db, userId, input.deck) : undefined;
  const wanting = deck ? deck.cards : null;
  const [found, focus] = await Promise.all([
    wanting ? listTradeCandidatesWanting(db, userId, wanting) : listTradeCandidates(db, userId),
    input.with ? tradeCandidateWith(db, userId, input.with, wanting) : undefined,
  ]);
  return { ...found, limit: CANDIDATE_LIMIT, focus, ...(deck === undefined ? {} : { deck: deck && { slug: deck.slug, name: deck.name, missing: deck.missing } }) };
}
