import type { CardFace } from "#app/lib/card-face.ts";
import type { CardPlayFacts } from "#app/features/cards/types.ts";
import type { DeckLegality } from "./rules";

/** Shapes the deck services return; shared by the server and the browser components. */

/** One card of a deck as pages and the editor show it. */
/** A deck's card: everything its picture is drawn from (`id` is the card id), and the deck's facts. */
export type DeckCardView = CardFace & CardPlayFacts & {
  cardId: string;
  /** The pack it was picked from, else its newest pack. */
  packId: string | null;
  packName: string;
  packNameEn: string;
  count: number;
  /** From the catalogue; null when it has no data for this card. */
  kind: "pokemon" | "trainer" | null;
  basic: boolean | null;
  fossil: boolean;
  /** Whether the trade rules let it be traded now (its rarity and packs: cardTradeability). */
  tradeable: boolean;
};

/** A card that stands for a deck on its placeholder eyecatch. */
export type KeyCard = { cardId: string; name: string; imageUrl: string; rarity: string };

/** A deck in a list (public list, home page, related decks). */
export type DeckSummary = {
  id: string;
  slug: string;
  name: string;
  tier: number;
  category: string;
  energyTypes: string[];
  eyecatchUrl: string | null;
  featured: boolean;
  updatedAt: string;
  createdAt: string;
  keyCards: KeyCard[];
};

export type DeckDetail = DeckSummary & {
  isPublic: boolean;
  /**
   * The start of the rendered text as plain text (the page's meta description when none is set).
   * Public answers carry the rendered HTML only, never the source as typed: it may name drafts.
   */
  excerpt: string;
  contentHtml: string;
  keywords: string;
  metaDescription: string;
  cards: DeckCardView[];
  legality: DeckLegality;
  related: DeckSummary[];
  /** The deck list with Japanese section names (ポケモン: 8 …). */
  exportText: string;
  /** The same list in the English format (Pokémon: 8 …) that deck tools read. */
  exportTextEn: string;
};

/** A deck as the editor loads it. */
export type DeckEditData = {
  id: string;
  name: string;
  tier: number;
  category: string;
  description: string;
  energyTypes: string[];
  eyecatchUrl: string | null;
  slug: string;
  isPublic: boolean;
  keywords: string;
  metaDescription: string;
  relatedDeckIds: string[];
  featuredOrder: number | null;
  /** The revision a save must name (a stale one is refused with 409). */
  revision: number;
  cards: DeckCardView[];
};

/** A row of the admin デッキ管理 list. */
export type AdminDeckRow = { id: string; slug: string; name: string; isPublic: boolean; total: number; createdAt: string; updatedAt: string; eyecatchUrl: string | null };

/** A deck the related-deck picker offers. */
export type DeckOption = { id: string; name: string; slug: string; isPublic: boolean; eyecatchUrl: string | null; updatedAt: string };

export type DeckImportResult = { cards: DeckCardView[]; unmatched: { line: number; text: string }[] };
