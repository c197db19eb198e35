import type { z } from "../../lib/zod";
import { localeFromRequest, translate } from "../../lib/i18n";
import { readJsonBody } from "../../lib/json-body.server";
import { articleFieldErrors } from "./articles.schema";
import { articlesMessages } from "./messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The admin API's input: the JSON body parsed by `schema`; a field that breaks a rule answers
 * 400 `{"error": first message, "fields": {field: message}}` (SPEC.md §5 texts).
 */
export async function parseArticleBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body = await readJsonBody(request);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const locale = localeFromRequest(request);
  const fields = articleFieldErrors(parsed.error, (key, params) => translate(articlesMessages, locale, key, params));
  const first = Object.values(fields)[0] ?? translate(articlesMessages, locale, "errInvalid");
  throw Response.json({ error: first, fields }, { status: 400 });
}

export const methodNotAllowed = (allow: string) => Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: allow } });
