import { z } from "#app/lib/zod.ts";
import { fieldMessages } from "#app/lib/validation.ts";
import { isImageUrl } from "#app/lib/image-url.ts";
import { isSafeText, safeString } from "#app/lib/text.ts";
import { ENERGY_VALUES } from "./energy";
import { deckErrorMessages, type DeckErrorMessageKey } from "./error-messages";
import {
  DECK_CATEGORIES,
  DESCRIPTION_MAX,
  KEYWORDS_MAX,
  LIST_MAX_COPIES,
  MAX_DECK_ROWS,
  MAX_RELATED,
  META_DESCRIPTION_MAX,
  NAME_MAX,
  SLUG_MAX,
  SLUG_PATTERN,
  URL_MAX,
} from "./rules";

// Issue messages are keys of deckErrorMessages; the form and the API translate them (with {max}).
const key = (k: DeckErrorMessageKey) => k;

/** Keywords are typed comma separated; Japanese input gives 、 or ， too. Stored as "a, b, c". */
export function normaliseKeywords(value: string): string {
  const seen = new Set<string>();
  for (const part of value.split(/[,，、]/)) {
    const keyword = part.trim().replace(/\s+/g, " ");
    if (keyword) seen.add(keyword);
  }
  return [...seen].join(", ");
}

// NUL and lone surrogates are refused (lib/text.ts); line breaks stay; other control characters go.
const text = () => safeString(key("errInvalidRequest"));
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g;
const plain = (value: string) => value.replace(/\r\n?/g, "\n").replace(CONTROL, "");

export const DeckCardInputSchema = z.object({
  cardId: text().trim().min(1, key("errInvalidRequest")).max(64, key("errInvalidRequest")),
  packId: text().trim().max(64).nullish().transform((v) => v || null),
  // docs/product-rules.md §5: 0–4 in the deck list; a 0 is dropped (setting a count to 0 removes the card).
  count: z.coerce.number().int(key("errCopies")).min(0, key("errCopies")).max(LIST_MAX_COPIES, key("errCopies")),
});

/**
 * A deck as the editor saves it (POST /api/admin/decks, PATCH /api/admin/decks/{id}). docs/product-rules.md §5:
 * name (trimmed), tier and category are required with their exact messages; the slug is
 * optional (empty → generated) and letters, digits, hyphen, underscore only.
 */
export const DeckInputSchema = z.object({
  name: z
    .string({ error: key("nameRequired") })
    .refine(isSafeText, key("errInvalidRequest"))
    .transform((v) => plain(v).replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, key("nameRequired")).max(NAME_MAX, key("errNameTooLong"))),
  tier: z.coerce.number({ error: key("tierRequired") }).int(key("tierRequired")).min(1, key("tierRequired")).max(4, key("tierRequired")),
  category: z.enum(DECK_CATEGORIES, { error: key("categoryRequired") }),
  description: text().default("").transform(plain).pipe(z.string().max(DESCRIPTION_MAX, key("errDescriptionTooLong"))),
  energyTypes: z
    .array(z.string().refine((v) => ENERGY_VALUES.includes(v), key("errEnergyInvalid")))
    .max(ENERGY_VALUES.length, key("errEnergyInvalid"))
    .default([])
    .transform((list) => [...new Set(list)]),
  eyecatchUrl: text()
    .trim()
    .max(URL_MAX, key("errEyecatch"))
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || isImageUrl(v), key("errEyecatch")),
  slug: text()
    .trim()
    .max(SLUG_MAX, key("errSlugInvalid"))
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || SLUG_PATTERN.test(v), key("errSlugInvalid")),
  isPublic: z.boolean().default(false),
  // The admin confirmed publishing a deck that breaks the game's rules (the editor's dialog); see assertPublishable.
  publishIllegal: z.boolean({ error: key("errInvalidRequest") }).default(false),
  keywords: text().default("").transform(plain).pipe(z.string().max(KEYWORDS_MAX, key("errKeywordsTooLong"))).transform(normaliseKeywords),
  metaDescription: text().default("").transform((v) => plain(v).replace(/\n/g, " ").trim()).pipe(z.string().max(META_DESCRIPTION_MAX, key("errMetaTooLong"))),
  relatedDeckIds: z.array(z.string().uuid(key("errRelatedUnknown"))).max(MAX_RELATED, key("errRelatedUnknown")).default([]).transform((list) => [...new Set(list)]),
  featuredOrder: z.coerce.number().int(key("errFeatured")).min(1, key("errFeatured")).max(999, key("errFeatured")).nullish().transform((v) => v ?? null),
  cards: z
    .array(DeckCardInputSchema)
    .max(MAX_DECK_ROWS, key("errTooManyCards"))
    .default([])
    .transform((list) => {
      // One row per card in the editor's order; a repeated card keeps its first place, counts add up.
      const rows = new Map<string, { cardId: string; packId: string | null; count: number }>();
      for (const card of list) {
        const kept = rows.get(card.cardId);
        if (kept) kept.count = Math.min(LIST_MAX_COPIES, kept.count + card.count);
        else rows.set(card.cardId, { ...card });
      }
      return [...rows.values()].filter((card) => card.count > 0);
    }),
});

export type DeckInput = z.infer<typeof DeckInputSchema>;

/** A save of an existing deck also names the revision its editor loaded (a stale one is a 409). */
export const DeckUpdateSchema = DeckInputSchema.extend({
  revision: z.number({ error: key("errRevision") }).int(key("errRevision")).positive(key("errRevision")),
});
export type DeckField = keyof DeckInput | "revision";

/** Limits shown with each message's {max}. */
export const FIELD_MAX: Partial<Record<DeckField, number>> = {
  name: NAME_MAX,
  metaDescription: META_DESCRIPTION_MAX,
  keywords: KEYWORDS_MAX,
  description: DESCRIPTION_MAX,
  cards: MAX_DECK_ROWS,
};

/** The first problem of each field, translated: `{ name: "デッキ名を入力してください。" }`. */
export function deckFieldErrors(error: z.ZodError, translateKey: (key: DeckErrorMessageKey, params?: { max: number }) => string): Record<string, string> {
  return fieldMessages(error, (key, params) => translateKey(key, { max: Number(params.max ?? 0) }), deckErrorMessages.ja, { fallback: "errInvalidRequest", max: FIELD_MAX });
}
