import type { Db } from "../../db/client.server";
import { cardIndex } from "../cards/card-index.server";
import { hostedImageSizes } from "../uploads/uploads.server";
import type { UploadStore } from "../uploads/storage.server";
import type { ContentRefs, RelatedRef } from "./blocks";
import { contentRefIds, formatContent } from "./format";

/**
 * How related-article and related-deck blocks find what they show. Extension point: the articles
 * and deck recipes features register their lookup here when their tables exist (public items
 * only); until then those blocks render as "not found".
 */
export const RELATED_LOOKUPS: Partial<Record<"article" | "deck", (db: Db, refs: string[]) => Promise<Map<string, RelatedRef>>>> = {};

/** Looks up everything a text's blocks and images refer to (card index, uploads table, related lookups). */
export async function resolveContentRefs(db: Db, store: UploadStore, source: string): Promise<ContentRefs> {
  const ids = contentRefIds(source);
  const index = ids.cards.length > 0 ? await cardIndex(db) : null;
  const cards = new Map<string, { id: string; name: string; rarity: string; imageUrl: string }>();
  for (const id of ids.cards) {
    const card = index?.byId.get(id);
    if (card) cards.set(id, { id: card.id, name: card.name, rarity: card.rarity, imageUrl: card.imageUrl });
  }
  const [images, articles, decks] = await Promise.all([
    hostedImageSizes(db, store, ids.images),
    ids.articles.length > 0 && RELATED_LOOKUPS.article ? RELATED_LOOKUPS.article(db, ids.articles) : new Map<string, RelatedRef>(),
    ids.decks.length > 0 && RELATED_LOOKUPS.deck ? RELATED_LOOKUPS.deck(db, ids.decks) : new Map<string, RelatedRef>(),
  ]);
  return { cards, images, articles, decks };
}

/** The stored HTML of an editor's text: the one formatter, with its references looked up. */
export async function renderStoredContent(db: Db, store: UploadStore, source: string): Promise<string> {
  return formatContent(source, await resolveContentRefs(db, store, source));
}
