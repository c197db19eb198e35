import { ARTICLE_CATEGORIES } from "../features/articles/categories";
import { articlesMessages } from "../features/articles/messages";
import { readInput } from "../lib/input.server";
import { ValidationError } from "../lib/validation";
import { z } from "../lib/zod";

const ListQuerySchema = z.object({
  category: z.enum(ARTICLE_CATEGORIES).or(z.literal("").transform(() => undefined)).optional(),
  limit: z.coerce.number().int().min(1).max(100).or(z.literal("").transform(() => undefined)).optional(),
  cursor: z.string().optional(),
});
import { listPublicArticlesAfter } from "../features/articles/public.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.articles";

/** GET /api/articles?category=&cursor=&limit= — public articles, newest first. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const query = await readInput(request, ListQuerySchema, { messages: articlesMessages, fallback: "errInvalid" });
  const page = await listPublicArticlesAfter(context.db, { category: query.category ?? null, cursor: query.cursor ?? null, limit: query.limit });
  if (!page) throw ValidationError.field("cursor", articlesMessages, "errInvalid");
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=60" } });
});
