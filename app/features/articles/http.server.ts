import type { z } from "#app/lib/zod.ts";
import { methodNotAllowed as refuseMethod } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { ARTICLE_FIELD_MAX } from "./articles.schema";
import { articlesMessages } from "./messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The admin API's input: the JSON body parsed by `schema`; a field that breaks a rule answers
 * 400 `{"error": first message, "code": "invalid_input", "fields": {field: message}}` (docs/product-rules.md §5 texts).
 */
export function parseArticleBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return readInput(request, schema, { accept: ["json"], messages: articlesMessages, fallback: "errInvalid", max: ARTICLE_FIELD_MAX });
}

export const methodNotAllowed = (allow: string): never => {
  throw refuseMethod(allow);
};
