import { isEnergyType } from "./energy";
import { DECK_CATEGORIES } from "./rules";

export type DeckFilters = { tier: number | null; energy: string | null; category: string | null };

/** The list filters as they appear in the URL (?tier=&energy=&category=); unknown values mean "no filter". */
export function deckListFiltersFromParams(params: URLSearchParams): DeckFilters {
  const tier = Number(params.get("tier"));
  const energy = params.get("energy")?.trim() ?? "";
  const category = params.get("category")?.trim() ?? "";
  return {
    tier: Number.isInteger(tier) && tier >= 1 && tier <= 4 ? tier : null,
    energy: isEnergyType(energy) ? energy : null,
    category: (DECK_CATEGORIES as readonly string[]).includes(category) ? category : null,
  };
}
