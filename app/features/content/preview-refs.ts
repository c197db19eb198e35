import type { ContentRefs } from "./blocks";
import { send } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import type { ContentRefIds } from "./format";

/** ContentRefs as the refs API sends them (maps as objects). */
type ContentRefsJson = {
  cards: Record<string, NonNullable<ContentRefs["cards"]> extends Map<string, infer V> ? V : never>;
  articles: Record<string, NonNullable<ContentRefs["articles"]> extends Map<string, infer V> ? V : never>;
  decks: Record<string, NonNullable<ContentRefs["decks"]> extends Map<string, infer V> ? V : never>;
  images: Record<string, { width: number; height: number }>;
};

const maps = (value: unknown): value is Partial<Record<keyof ContentRefsJson, object>> =>
  typeof value === "object" && value !== null && Object.values(value).every((map) => typeof map === "object" && map !== null);
/** The refs API's answer: one object per kind of reference, keyed by id. */
const ContentRefsAnswer = z.custom<Partial<ContentRefsJson>>(maps);

/**
 * The browser's side of `resolveContentRefs`: POST /api/admin/content/refs with what a text refers
 * to, so the preview renders cards and related blocks exactly as the server will store them.
 */
export async function fetchContentRefs(ids: ContentRefIds, signal?: AbortSignal): Promise<ContentRefs> {
  const empty = !ids.cards.length && !ids.articles.length && !ids.decks.length && !ids.images.length;
  if (empty) return {};
  const sent = await send("/api/admin/content/refs", { json: ids, signal }, ContentRefsAnswer);
  if (!sent.ok) throw new Error(sent.refusal?.message ?? `HTTP ${sent.status}`);
  const body = sent.data;
  return {
    cards: new Map(Object.entries(body.cards ?? {})),
    articles: new Map(Object.entries(body.articles ?? {})),
    decks: new Map(Object.entries(body.decks ?? {})),
    images: new Map(Object.entries(body.images ?? {})),
  };
}
