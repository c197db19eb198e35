import { z } from "#app/lib/zod.ts";
import { isEnergyType } from "./energy";
import { MAX_MISSING_FILTER } from "./filters";
import { DECK_CATEGORIES } from "./rules";

/**
 * The deck list's query (?tier=&energy=&category=&missing=&cursor=), read by the one query reader
 * (lib/query.ts): an unknown value means no filter; the cursor is checked by the list's service.
 */
export const DeckListQuerySchema = z.object({
  tier: z.coerce.number().int().min(1).max(4).nullable().catch(null),
  energy: z.string().trim().refine(isEnergyType).nullable().catch(null),
  category: z
    .string()
    .trim()
    .refine((category) => (DECK_CATEGORIES as readonly string[]).includes(category))
    .nullable()
    .catch(null),
  missing: z
    .string()
    .trim()
    .regex(/^\d$/)
    .transform(Number)
    .refine((missing) => missing <= MAX_MISSING_FILTER)
    .nullable()
    .catch(null),
  cursor: z
    .string()
    .optional()
    .transform((cursor) => cursor || null),
});
