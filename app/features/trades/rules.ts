/**
 * Trade rules of Pokémon TCG Pocket and of the board, shared by the form (instant feedback) and
 * the server (the gate). Nothing here touches the database, so the client bundle can use it.
 */

/** At most this many offers open at once per user (the board stays a list of real offers). */
export const MAX_OPEN_OFFERS = 5;
/** An open offer leaves the board after 72 hours: the game's own trade window. */
export const OFFER_TTL_HOURS = 72;
/** An owner may push an offer back to the top once per 24 hours. */
export const BUMP_INTERVAL_HOURS = 24;
export const COMMENT_MAX_LENGTH = 500;
export const REPORT_REASON_MAX_LENGTH = 500;
/** docs/product-rules.md §5: the card picker offers 1–2 copies of a card. */
export const MIN_COPIES = 1;
export const MAX_COPIES = 2;
export const MAX_CARDS_PER_SIDE = 10;
/** Per user per hour; counted in the database so the limit holds across instances. */
export const POSTS_PER_HOUR = 10;
export const RESPONSES_PER_HOUR = 20;
export const BOARD_PAGE_SIZE = 20;
/** マッチ keeps the best this many offers, shown MATCH_PAGE_SIZE to a page. */
export const MATCH_LIMIT = 50;
export const MATCH_PAGE_SIZE = 10;

export const OFFER_STATUSES = ["open", "negotiating", "completed", "closed", "expired"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export type PairingCard = { cardId: string; rarity: string };

export type RarityPairs = {
  rarity: string;
  give: string[];
  want: string[];
  /** How many 1:1 trades this rarity allows at once: min(give, want). */
  fitting: number;
};

/**
 * The game trades 1:1 and only between cards of the same rarity: for each rarity present on
 * both sides, every given card can go for every wanted card of that rarity.
 */
export function pairsByRarity(give: readonly PairingCard[], want: readonly PairingCard[]): RarityPairs[] {
  const byRarity = new Map<string, { give: string[]; want: string[] }>();
  const slot = (rarity: string) => {
    let entry = byRarity.get(rarity);
    if (!entry) byRarity.set(rarity, (entry = { give: [], want: [] }));
    return entry;
  };
  for (const card of give) slot(card.rarity).give.push(card.cardId);
  for (const card of want) slot(card.rarity).want.push(card.cardId);
  const result: RarityPairs[] = [];
  for (const [rarity, sides] of byRarity) {
    if (sides.give.length && sides.want.length) {
      result.push({ rarity, give: sides.give, want: sides.want, fitting: Math.min(sides.give.length, sides.want.length) });
    }
  }
  return result;
}

/** True when at least one given card shares a rarity with a wanted one. */
export function hasSameRarityPair(give: readonly PairingCard[], want: readonly PairingCard[]): boolean {
  return pairsByRarity(give, want).length > 0;
}

/**
 * The given cards the poster's collection holds fewer copies of than the offer gives
 * (docs/decisions/045): a warning on the form and the offer page, never a refusal — a collection
 * may lag behind the game. `owned` is null for a player who keeps no collection: nothing to say.
 */
export function givesBeyondCollection<C extends { cardId: string; count: number }>(give: readonly C[], owned: Readonly<Record<string, number>> | null): C[] {
  if (!owned) return [];
  return give.filter((card) => (owned[card.cardId] ?? 0) < card.count);
}
