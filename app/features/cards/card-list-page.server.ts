import type { Db } from "#app/db/client.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { RARITIES } from "#app/lib/rarity.ts";
import { z } from "#app/lib/zod.ts";
import { canonicalPackId, DEFAULT_PAGE_SIZE, listCards, listPacks } from "./cards.server";
import { CardError } from "./errors";
import { cardsMessages } from "./messages";

// docs/product-rules.md §9: the first pack selected by default is the time-and-space pack dialga.
const DEFAULT_PACK = "dialga";
const RARITY_CODES = new Set(RARITIES.map((r) => r.code));

/**
 * The card list's query: an unknown rarity is every rarity, the search is cut at 100 characters, a
 * page number outside 1–1000 (or none) is the nearest one; the pack and the cursor are checked by
 * the page model.
 */
export const CardsPageQuerySchema = z.object({
  pack: z.string().optional(),
  rarity: z
    .string()
    .refine((code) => RARITY_CODES.has(code))
    .catch(""),
  q: z
    .string()
    .catch("")
    .transform((q) => q.slice(0, 100)),
  page: z
    .string()
    .catch("1")
    .transform((page) => Math.max(1, Math.min(1000, Number.parseInt(page, 10) || 1))),
  cursor: z.string().optional(),
});

/**
 * What /cards shows: the pack list, the chosen pack's page of cards under the rarity and search
 * filters, and its title. No pack chosen is the default pack (the first one when the catalogue has
 * no default); an unknown pack is not_found. A damaged cursor in a shared link shows the first page.
 */
export async function readCardListPage(db: Db, locale: Locale, query: z.output<typeof CardsPageQuerySchema>) {
  const { rarity, q } = query;
  // The pack list changes only on import (which clears this cache).
  const packs = await listPacks(db);
  const wanted = canonicalPackId(query.pack || DEFAULT_PACK);
  const pack = packs.find((p) => p.id === wanted) ?? (query.pack ? undefined : packs[0]);
  if (!pack) throw new CardError("not_found");
  let cursor = query.cursor ?? null;
  let result;
  try {
    result = await listCards(db, { packId: pack.id, q, rarity: rarity || null, limit: DEFAULT_PAGE_SIZE, cursor });
  } catch (error) {
    if (!(error instanceof CardError && error.code === "invalid_cursor")) throw error;
    cursor = null;
    result = await listCards(db, { packId: pack.id, q, rarity: rarity || null, limit: DEFAULT_PAGE_SIZE });
  }
  const packName = locale === "en" ? pack.nameEn : pack.nameJa;
  return {
    packs: packs.map((p) => ({ id: p.id, nameJa: p.nameJa, nameEn: p.nameEn })),
    pack: { id: pack.id, name: packName },
    rarity,
    q,
    page: cursor ? query.page : 1,
    pageSize: DEFAULT_PAGE_SIZE,
    cards: result.cards,
    total: result.total,
    nextCursor: result.nextCursor,
    title: translate(cardsMessages, locale, "pageTitleWithPack", { pack: packName }),
    description: translate(cardsMessages, locale, "packDescription", { pack: packName, count: pack.cardCount }),
  };
}
