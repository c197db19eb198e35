import { z } from "#app/lib/zod.ts";
import type { RelatedItem, RelatedSource } from "./related-picker";

/**
 * The related picker's two sources, shared by the article and deck editors: articles
 * (GET /api/admin/articles?q=, a title search) and deck recipes (GET /api/admin/decks, filtered by
 * the typed name). Each answer is read through the few fields a row shows, never cast.
 */

const ArticleRows = z.object({
  articles: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      thumbnailUrl: z.string().nullable(),
      isPublic: z.boolean(),
      createdAt: z.string(),
      publishedAt: z.string().nullable().optional(),
    }),
  ),
});

const DeckRows = z.object({
  decks: z.array(
    z.object({ slug: z.string(), name: z.string(), isPublic: z.boolean(), updatedAt: z.string(), eyecatchUrl: z.string().nullable() }),
  ),
});

async function getJson<S extends z.ZodType>(url: string, signal: AbortSignal, schema: S): Promise<z.output<S>> {
  const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return schema.parse(await response.json());
}

/** Articles, the one being edited left out. */
export function articleRelatedSource(excludeId: string | null): RelatedSource {
  return {
    kind: "article",
    async search(query, signal) {
      const params = new URLSearchParams();
      if (query) params.set("q", query);
      const { articles } = await getJson(`/api/admin/articles?${params}`, signal, ArticleRows);
      return articles
        .filter((row) => row.id !== excludeId)
        .slice(0, 50)
        .map((row): RelatedItem => ({ kind: "article", ref: row.slug, title: row.title, date: row.publishedAt ?? row.createdAt, thumbnailUrl: row.thumbnailUrl, isPublic: row.isPublic }));
    },
  };
}

/** Deck recipes (デッキレシピ tab); blocks carry the slug. */
export const deckRelatedSource: RelatedSource = {
  kind: "deck",
  async search(query, signal) {
    const { decks } = await getJson("/api/admin/decks", signal, DeckRows);
    const wanted = query.trim().toLowerCase();
    return decks
      .filter((deck) => !wanted || deck.name.toLowerCase().includes(wanted))
      .map((deck): RelatedItem => ({ kind: "deck", ref: deck.slug, title: deck.name, date: deck.updatedAt, thumbnailUrl: deck.eyecatchUrl, isPublic: deck.isPublic }));
  },
};
