import type { DeckCardView } from "./types";

// The trade board's public URLs (its documented query parameters), not its code: a deck page
// only links there. /trades?giveAny=<ids> lists offers giving any of the cards;
// /trades/new?want=<id>*<copies>,… starts a new offer with those cards on the 求 side.

/** The offer form takes at most 10 cards a side and 1–2 copies of each (trade rules). */
const OFFER_SIDE_MAX = 10;
const OFFER_COPIES_MAX = 2;

/** The cards the trade rules let be traded now (DeckCardView.tradeable is their answer). */
export function tradeableCards(cards: readonly DeckCardView[]): DeckCardView[] {
  return cards.filter((card) => card.tradeable);
}

export function boardUrlForDeck(cards: readonly DeckCardView[]): string | null {
  const ids = tradeableCards(cards).map((c) => c.cardId).slice(0, 20);
  return ids.length ? `/trades?giveAny=${ids.map(encodeURIComponent).join(",")}` : null;
}

export function newOfferUrlForDeck(cards: readonly DeckCardView[]): string | null {
  const wanted = tradeableCards(cards)
    .slice(0, OFFER_SIDE_MAX)
    .map((c) => `${encodeURIComponent(c.cardId)}*${Math.min(c.count, OFFER_COPIES_MAX)}`);
  return wanted.length ? `/trades/new?want=${wanted.join(",")}` : null;
}
