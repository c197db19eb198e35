import { readInput } from "#app/lib/input.server.ts";
import type { z } from "#app/lib/zod.ts";
import { FIELD_MAX } from "./decks.schema";
import { deckErrorMessages } from "./error-messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The admin API's deck save: the JSON body parsed by `schema` (DeckInputSchema, or
 * DeckUpdateSchema with the revision it was loaded at), the same way articles parse theirs
 * (features/articles/http.server.ts); a broken rule throws a ValidationError naming each field
 * (docs/product-rules.md §5 texts).
 */
export function parseDeckBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return readInput(request, schema, { accept: ["json"], messages: deckErrorMessages, fallback: "errInvalidRequest", max: FIELD_MAX });
}
