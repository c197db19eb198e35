import { ArticleError } from "#app/features/articles/errors.ts";
import { getPublicArticle } from "#app/features/articles/public.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.articles.$ref";

/** GET /api/articles/{slug or id} — a public article with its HTML; 404 for unknown or unpublished. */
export const loader = withJsonErrors(async function loader({ params, context }: Route.LoaderArgs) {
  const article = await getPublicArticle(context.db, params.ref);
  if (!article) throw new ArticleError("not_found");
  return Response.json(article, { headers: { "Cache-Control": "public, max-age=60" } });
});
