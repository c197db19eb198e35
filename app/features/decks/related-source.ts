import type { RelatedItem, RelatedSource } from "../content/components/related-picker";
import type { AdminDeckRow } from "./types";

/**
 * Deck recipes as a source of the editors' related picker (デッキレシピ tab): every deck from
 * GET /api/admin/decks, filtered by the typed name. Blocks carry the slug.
 */
export const deckRelatedSource: RelatedSource = {
  kind: "deck",
  async search(query, signal) {
    const response = await fetch("/api/admin/decks", { signal, headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { decks } = (await response.json()) as { decks: AdminDeckRow[] };
    const wanted = query.trim().toLowerCase();
    return decks
      .filter((deck) => !wanted || deck.name.toLowerCase().includes(wanted))
      .map((deck): RelatedItem => ({ kind: "deck", ref: deck.slug, title: deck.name, date: deck.updatedAt, thumbnailUrl: deck.eyecatchUrl, isPublic: deck.isPublic }));
  },
};
