/**
 * Deck rules of Pokémon TCG Pocket and docs/product-rules.md's input bounds, shared by the editor (live
 * checks) and the server. Nothing here touches the database, so the client bundle can use it.
 */

/** A legal deck has exactly this many cards. */
export const DECK_SIZE = 20;
/** At most this many copies of one card name (arts, rarities and packs of a name count together). */
export const MAX_COPIES_PER_NAME = 2;
/** The energy zone holds 1 to 3 of the 8 energy types. */
export const MIN_ENERGY_TYPES = 1;
export const MAX_ENERGY_TYPES = 3;
/** docs/product-rules.md §5/§9 input bounds: copies 0–4 in the deck list, 0–2 in the card picker; tier 1–4. */
export const LIST_MAX_COPIES = 4;
export const PICKER_MAX_COPIES = 2;
export const TIERS = [1, 2, 3, 4] as const;
/** docs/product-rules.md §9: meta description 200 characters; the editor's textarea has 50 rows. */
export const META_DESCRIPTION_MAX = 200;
export const EDITOR_ROWS = 50;
/** docs/product-rules.md §9: the editor's pack select starts on the first time-and-space pack. */
export const DEFAULT_PACK_ID = "dialga";
/** Bounds of what one save may carry (a draft may be over 20 cards, not unbounded). */
export const MAX_DECK_ROWS = 60;
export const NAME_MAX = 100;
export const SLUG_MAX = 100;
export const DESCRIPTION_MAX = 20_000;
export const KEYWORDS_MAX = 500;
export const MAX_RELATED = 10;
export const URL_MAX = 2000;

/** docs/product-rules.md §6 deck category options. */
export const DECK_CATEGORIES = ["news", "maintenance", "event", "deck-recipe"] as const;
export type DeckCategory = (typeof DECK_CATEGORIES)[number];

/** docs/product-rules.md §5: a deck slug is letters, digits, hyphen and underscore. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isDeckId = (value: string) => UUID.test(value);

/** A card as the rules see it: `kind`/`basic` null when the catalogue has no data for it. */
export type RuleCard = {
  cardId: string;
  name: string;
  nameEn?: string | null;
  count: number;
  kind: "pokemon" | "trainer" | null;
  basic: boolean | null;
};

export type DeckProblem =
  | { code: "card_count"; count: number }
  | { code: "too_many_copies"; name: string; count: number }
  | { code: "no_basic" }
  | { code: "energy_count"; count: number };

export type DeckLegality = {
  /** legal: every rule holds; illegal: a rule is broken; unknown: no rule broken, but one cannot be checked. */
  status: "legal" | "illegal" | "unknown";
  total: number;
  problems: DeckProblem[];
  /** Names of the cards whose type or stage the catalogue does not know. */
  unknownCards: string[];
  /** True when the Basic Pokémon rule could not be decided because of unknown cards. */
  basicUnknown: boolean;
};

/**
 * The name the copy limit counts by: the English name when known (the Japanese one is derived
 * from it), else the Japanese name; width, case and spacing folded. "ピカチュウex" and
 * "ピカチュウ" stay different names, as in the game.
 */
export function copyLimitName(card: Pick<RuleCard, "name" | "nameEn">): string {
  const name = card.nameEn?.trim() ? card.nameEn : card.name;
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

export function deckTotal(cards: readonly Pick<RuleCard, "count">[]): number {
  return cards.reduce((sum, card) => sum + card.count, 0);
}

/** Checks a deck against the game's construction rules (issue: legality, shown, never blocking a draft). */
export function checkDeck(cards: readonly RuleCard[], energyTypes: readonly string[]): DeckLegality {
  const problems: DeckProblem[] = [];
  const total = deckTotal(cards);
  if (total !== DECK_SIZE) problems.push({ code: "card_count", count: total });

  const byName = new Map<string, { name: string; count: number }>();
  for (const card of cards) {
    const key = copyLimitName(card);
    const entry = byName.get(key);
    if (entry) entry.count += card.count;
    else byName.set(key, { name: card.name, count: card.count });
  }
  for (const { name, count } of byName.values()) {
    if (count > MAX_COPIES_PER_NAME) problems.push({ code: "too_many_copies", name, count });
  }

  const unknownCards = cards.filter((card) => card.kind === null || card.basic === null).map((card) => card.name);
  const hasBasic = cards.some((card) => card.count > 0 && card.kind === "pokemon" && card.basic === true);
  let basicUnknown = false;
  if (!hasBasic) {
    if (unknownCards.length) basicUnknown = true;
    else problems.push({ code: "no_basic" });
  }

  const energies = new Set(energyTypes).size;
  if (energies < MIN_ENERGY_TYPES || energies > MAX_ENERGY_TYPES) problems.push({ code: "energy_count", count: energies });

  const status = problems.length ? "illegal" : basicUnknown ? "unknown" : "legal";
  return { status, total, problems, unknownCards: [...new Set(unknownCards)], basicUnknown };
}
