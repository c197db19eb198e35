import { load } from "#app/lib/send.ts";
import { record } from "#app/lib/answers.ts";
import { z } from "#app/lib/zod.ts";
import type { CardSearchResult } from "#app/features/cards/types.ts";

/**
 * What /api/cards/search answers. Loaded with the first search, not with the page: zod is not
 * part of a card list's or the trade board's first load.
 */
/** `opensAt`: only the trade picker sends it (a card a dated trade rule opens later). */
export const SearchAnswer = z.object({ cards: z.array(record<CardSearchResult & { opensAt?: string | null }>()) });

export function searchCards(url: string, signal: AbortSignal): Promise<z.output<typeof SearchAnswer>> {
  return load(url, SearchAnswer, { signal });
}
