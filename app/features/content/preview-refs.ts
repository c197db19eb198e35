import type { ContentRefs } from "./blocks";
import type { ContentRefIds } from "./format";

/** ContentRefs as the refs API sends them (maps as objects). */
type ContentRefsJson = {
  cards: Record<string, NonNullable<ContentRefs["cards"]> extends Map<string, infer V> ? V : never>;
  articles: Record<string, NonNullable<ContentRefs["articles"]> extends Map<string, infer V> ? V : never>;
  decks: Record<string, NonNullable<ContentRefs["decks"]> extends Map<string, infer V> ? V : never>;
  images: Record<string, { width: number; height: number }>;
};

/**
 * The browser's side of `resolveContentRefs`: POST /api/admin/content/refs with what a text refers
 * to, so the preview renders cards and related blocks exactly as the server will store them.
 */
export async function fetchContentRefs(ids: ContentRefIds, signal?: AbortSignal): Promise<ContentRefs> {
  const empty = !ids.cards.length && !ids.articles.length && !ids.decks.length && !ids.images.length;
  if (empty) return {};
  const response = await fetch("/api/admin/content/refs", {
    method: "POST",
    signal,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(ids),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as ContentRefsJson;
  return {
    cards: new Map(Object.entries(body.cards ?? {})),
    articles: new Map(Object.entries(body.articles ?? {})),
    decks: new Map(Object.entries(body.decks ?? {})),
    images: new Map(Object.entries(body.images ?? {})),
  };
}
