import { ARTICLE_CATEGORIES } from "#app/features/articles/categories.ts";
import { articlesMessages } from "#app/features/articles/messages.ts";
import { readInput } from "#app/lib/input.server.ts";
import { ValidationError } from "#app/lib/validation.ts";
import { z } from "#app/lib/zod.ts";

const ListQuerySchema = z.object({
  category: z.enum(ARTICLE_CATEGORIES).or(z.literal("").transform(() => undefined)).optional(),
  limit: z.coerce.number().int().min(1).max(100).or(z.literal("").transform(() => undefined)).optional(),
  cursor: z.string().optional(),
});
import { listPublicArticlesAfter } from "#app/features/articles/public.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.articles";

/** GET /api/articles?category=&cursor=&limit= — public articles, newest first. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const query = await readInput(request, ListQuerySchema, { messages: articlesMessages, fallback: "errInvalid" });
  const page = await listPublicArticlesAfter(context.db, { category: query.category ?? null, cursor: query.cursor ?? null, limit: query.limit });
  if (!page) throw ValidationError.field("cursor", articlesMessages, "errInvalid");
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=60" } });
});
