import type { Db } from "#app/db/client.server.ts";
import { cardArt, isTrainerCard } from "#app/lib/card-face.ts";
import { cardFaceOf, cardIndex } from "#app/features/cards/card-index.server.ts";
import { cardBlockIds } from "./card-blocks";
import type { ContentCards } from "./types";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { hostedImageSizes } from "#app/features/uploads/uploads.server.ts";
import type { CardRef, ContentRefs, RelatedRef } from "./blocks";
import { startUpSlot, type StartUpSlot } from "#app/lib/start-up-slot.ts";
import { contentRefIds, formatContent, type ContentRefIds } from "./format";

// The formatter's pure helpers server code of other features needs.
export { contentRefIds, sanitizeContentHtml } from "./format";

export type RelatedLookup = (db: Db, refs: readonly string[]) => Promise<Map<string, RelatedRef>>;
type RelatedKind = "articles" | "decks";

/**
 * Where related blocks are looked up (docs/content-format.md): each content type registers its
 * public lookup at start-up (app/registrations.server.ts), so content imports neither articles
 * nor decks. Rendering before the registration is a mistake that would store every related block
 * as "not found", so it throws instead.
 */
const relatedLookups: Record<RelatedKind, StartUpSlot<RelatedLookup>> = {
  articles: startUpSlot("the related lookup for articles"),
  decks: startUpSlot("the related lookup for decks"),
};

export function registerRelatedLookup(kind: RelatedKind, lookup: RelatedLookup): void {
  relatedLookups[kind].fill(lookup);
}

const relatedLookup = (kind: RelatedKind): RelatedLookup => relatedLookups[kind].get();

/** At most this many references of each kind are looked up per text (the rest render as not found). */
export const MAX_REFS = 200;

/** Where the cards' art comes from besides their own URL and our storage (CARD_IMAGE_BASE_URL). */
export type CardArtOptions = { cardImageBaseUrl?: string | null };

/** The data `formatContent(text, refs)` needs for `contentRefIds(text)`: cards, related articles/decks, image sizes. */
export async function resolveContentRefs(db: Db, store: UploadStore, ids: ContentRefIds, options: CardArtOptions = {}): Promise<ContentRefs> {
  const cap = <T,>(list: readonly T[]) => list.slice(0, MAX_REFS);
  const [index, articles, decks, images] = await Promise.all([
    ids.cards.length ? cardIndex(db) : null,
    ids.articles.length ? relatedLookup("articles")(db, cap(ids.articles)) : new Map<string, RelatedRef>(),
    ids.decks.length ? relatedLookup("decks")(db, cap(ids.decks)) : new Map<string, RelatedRef>(),
    hostedImageSizes(db, store, cap(ids.images)),
  ]);
  const cards = new Map<string, CardRef>();
  for (const id of cap(ids.cards)) {
    const card = index?.byId.get(id);
    if (!card) continue;
    // The same art rule as every other picture of a card (CardImage).
    const art = cardArt(card, options.cardImageBaseUrl);
    cards.set(id, { id: card.id, name: card.name, rarity: card.rarity, imageUrl: art?.src ?? "", element: card.element, trainer: isTrainerCard(card), face: cardFaceOf(card) });
  }
  return { cards, articles, decks, images };
}

/** ContentRefs as JSON (maps become objects) for the editors' preview in the browser. */
export type ContentRefsJson = {
  cards: Record<string, CardRef>;
  articles: Record<string, RelatedRef>;
  decks: Record<string, RelatedRef>;
  images: Record<string, { width: number; height: number }>;
};

export function contentRefsToJson(refs: ContentRefs): ContentRefsJson {
  const plain = <V,>(map: Map<string, V> | undefined) => Object.fromEntries(map ?? []);
  return { cards: plain(refs.cards), articles: plain(refs.articles), decks: plain(refs.decks), images: plain(refs.images) };
}

/** The stored HTML of an editor's text: the one formatter, with its references looked up. */
export async function renderStoredContent(db: Db, store: UploadStore, source: string, options: CardArtOptions = {}): Promise<string> {
  return formatContent(source, await resolveContentRefs(db, store, contentRefIds(source), options));
}

/**
 * The cards a page draws for the card blocks of stored HTML (`StoredContent`): read from the
 * card index as it is now, so a block shows the art `cards:images` / `cards:art` stored after the
 * text was saved. A card no longer listed keeps the block the HTML has.
 */
export async function contentCards(db: Db, html: string): Promise<ContentCards> {
  const wanted = cardBlockIds(html).slice(0, MAX_REFS);
  if (!wanted.length) return { ids: [], faces: {} };
  const index = await cardIndex(db);
  const faces: ContentCards["faces"] = {};
  for (const id of wanted) {
    const card = index.byId.get(id);
    if (card) faces[id] = cardFaceOf(card);
  }
  return { ids: wanted.filter((id) => id in faces), faces };
}
