import { isArticleCategory } from "../features/articles/categories";
import { listPublicArticlesAfter } from "../features/articles/public.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.articles";

/** GET /api/articles?category=&cursor=&limit= — public articles, newest first (DESIGN.md §5). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const category = params.get("category") || null;
  if (category !== null && !isArticleCategory(category)) return Response.json({ error: "Unknown category" }, { status: 400 });
  const limitParam = params.get("limit");
  const limit = limitParam ? Number(limitParam) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) return Response.json({ error: "limit must be an integer from 1 to 100" }, { status: 400 });
  const page = await listPublicArticlesAfter(context.db, { category, cursor: params.get("cursor"), limit });
  if (!page) return Response.json({ error: "Invalid cursor" }, { status: 400 });
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=60" } });
});
