import type { RelatedItem, RelatedSource } from "../../content/components/related-picker";
import type { AdminArticleRow } from "../types";

/** The related picker's articles: GET /api/admin/articles?q= (title search), the article being edited left out. */
export function articleRelatedSource(excludeId: string | null): RelatedSource {
  return {
    kind: "article",
    async search(query, signal) {
      const params = new URLSearchParams();
      if (query) params.set("q", query);
      const response = await fetch(`/api/admin/articles?${params}`, { signal, headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { articles: AdminArticleRow[] };
      return body.articles
        .filter((row) => row.id !== excludeId)
        .slice(0, 50)
        .map((row): RelatedItem => ({ kind: "article", ref: row.slug, title: row.title, date: row.publishedAt ?? row.createdAt, thumbnailUrl: row.thumbnailUrl, isPublic: row.isPublic }));
    },
  };
}
