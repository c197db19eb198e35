// What the formatter's blocks show (blocks.ts), shared with the features that look them up.
import type { CardFace } from "#app/lib/card-face.ts";

export type ContentBlockKind = "card" | "article" | "deck";

/**
 * A card as its block shows it (from the card index on the server): `imageUrl` is the grid-sized
 * art by the cards' one art rule (`cardArt`), "" when there is none; `element`/`trainer` colour
 * the placeholder's frame as the card component does.
 */
export type CardRef = {
  id: string;
  name: string;
  rarity: string;
  imageUrl: string;
  element?: string | null;
  trainer?: boolean;
  /** What the card face component draws the block from (the editors' preview draws it as the page does). */
  face?: CardFace;
};
/** A related article or deck recipe as its block shows it. */
export type RelatedRef = { href: string; title: string; date: string; thumbnailUrl: string | null };

/** Everything the renderer may need looked up; a missing entry renders as "not found". */
export type ContentRefs = {
  cards?: Map<string, CardRef>;
  articles?: Map<string, RelatedRef>;
  decks?: Map<string, RelatedRef>;
  /** Sizes of images we host, by the URL used in the text. */
  images?: Map<string, { width: number; height: number }>;
};

/** The cards of a text's card blocks as a page draws them: `ids` in document order (one per drawn block), `faces` by id. */
export type ContentCards = { ids: string[]; faces: Record<string, CardFace> };
