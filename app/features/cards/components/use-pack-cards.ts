import { useCallback, useEffect, useRef, useState } from "react";
import { record } from "#app/lib/answers.ts";
import { load } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import type { CardListItem } from "#app/features/cards/types.ts";

/** The cards API's answer: one page of a pack's cards and the cursor of the next. */
const CardPage = z.object({ cards: z.array(record<CardListItem>()), nextCursor: z.string().nullable().optional() });

// docs/product-rules.md §9: search debounce 300 ms.
const DEBOUNCE_MS = 300;

export type PackCards = {
  /** null while the first page loads. */
  cards: CardListItem[] | null;
  /** Which load failed: the first page ("load" or, with a name typed, "search") or a later one ("more"). */
  failed: "load" | "search" | "more" | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

/**
 * A pack's cards for the editors' card pickers (GET /api/cards?pack=&q=), a page at a time: the
 * first page when the pack or the search changes (debounced while typing), the next ones on
 * さらに表示, so a whole pack can be gone through without searching.
 */
export function usePackCards(packId: string, query: string, pageSize: number, onError: (failed: "load" | "search" | "more", error: unknown) => void): PackCards {
  const [cards, setCards] = useState<CardListItem[] | null>(null);
  const [failed, setFailed] = useState<PackCards["failed"]>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const report = useRef(onError);
  report.current = onError;
  // A page asked for before the pack or the search changed is dropped when it comes.
  const generation = useRef(0);
  // The pack the shown cards belong to: another pack's cards are cleared at once, not after the
  // debounce, so the list never shows one pack's cards with another pack's paging.
  const shownPack = useRef(packId);
  const params = useCallback(
    (cursor: string | null) => {
      const search = new URLSearchParams({ pack: packId, limit: String(pageSize) });
      if (query.trim()) search.set("q", query.trim());
      if (cursor) search.set("cursor", cursor);
      return search;
    },
    [packId, query, pageSize],
  );

  useEffect(() => {
    if (!packId) return;
    const controller = new AbortController();
    const asked = ++generation.current;
    setNextCursor(null);
    if (shownPack.current !== packId) {
      shownPack.current = packId;
      setCards(null);
    }
    const timer = setTimeout(() => {
      setCards(null);
      load(`/api/cards?${params(null)}`, CardPage, { signal: controller.signal })
        .then((page) => {
          if (asked !== generation.current) return;
          setCards(page.cards);
          setNextCursor(page.nextCursor ?? null);
          setFailed(null);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const kind = query.trim() ? "search" : "load";
          report.current(kind, error);
          setCards([]);
          setNextCursor(null);
          setFailed(kind);
        });
    }, query ? DEBOUNCE_MS : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [packId, query, params]);

  const loadMore = useCallback(() => {
    if (!nextCursor || loadingMore) return;
    setLoadingMore(true);
    const asked = generation.current;
    load(`/api/cards?${params(nextCursor)}`, CardPage)
      .then((page) => {
        if (asked !== generation.current) return;
        setCards((current) => [...(current ?? []), ...page.cards]);
        setNextCursor(page.nextCursor ?? null);
        setFailed(null);
      })
      .catch((error: unknown) => {
        if (asked !== generation.current) return;
        report.current("more", error);
        setFailed("more");
      })
      .finally(() => setLoadingMore(false));
  }, [nextCursor, loadingMore, params]);

  return { cards, failed, hasMore: nextCursor !== null, loadingMore, loadMore };
}
