import { isEnergyType } from "./energy";
import { DECK_CATEGORIES } from "./rules";

export type DeckFilters = {
  tier: number | null;
  energy: string | null;
  category: string | null;
  /** A signed-in player's collection filter: at most this many copies missing (0: 今作れるデッキ). */
  missing: number | null;
};

/** The largest "at most N missing" the deck list offers (あと5枚以内). */
export const MAX_MISSING_FILTER = 5;

/** The list filters as they appear in the URL (?tier=&energy=&category=); unknown values mean "no filter". */
export function deckListFiltersFromParams(params: URLSearchParams): DeckFilters {
  const tier = Number(params.get("tier"));
  const energy = params.get("energy")?.trim() ?? "";
  const category = params.get("category")?.trim() ?? "";
  const missingParam = params.get("missing")?.trim() ?? "";
  const missing = /^\d$/.test(missingParam) ? Number(missingParam) : -1;
  return {
    tier: Number.isInteger(tier) && tier >= 1 && tier <= 4 ? tier : null,
    energy: isEnergyType(energy) ? energy : null,
    category: (DECK_CATEGORIES as readonly string[]).includes(category) ? category : null,
    missing: missing >= 0 && missing <= MAX_MISSING_FILTER ? missing : null,
  };
}
