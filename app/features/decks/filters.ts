export type DeckFilters = {
  tier: number | null;
  energy: string | null;
  category: string | null;
  /** A signed-in player's collection filter: at most this many copies missing (0: 今作れるデッキ). */
  missing: number | null;
};

/** The largest "at most N missing" the deck list offers (あと5枚以内). */
export const MAX_MISSING_FILTER = 5;
