import { deleteArticle, getArticleForEditor, updateArticle } from "#app/features/articles/articles.server.ts";
import { ArticleUpdateSchema } from "#app/features/articles/articles.schema.ts";
import { ArticleError } from "#app/features/articles/errors.ts";
import { methodNotAllowed, NO_STORE, parseArticleBody } from "#app/features/articles/http.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.admin.articles.$id";

/** GET /api/admin/articles/{id} — the article as the editor loads it (text as typed, revision). */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const article = await getArticleForEditor(context.db, params.id);
  if (!article) throw new ArticleError("not_found");
  return Response.json(article, { headers: NO_STORE });
});

/**
 * PATCH /api/admin/articles/{id} `{revision, …fields}` — changes the fields sent (409 when the
 * article changed since `revision`, or the slug is taken); DELETE removes it (204).
 */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("GET, PATCH, DELETE");
  await requireApiAdmin(request, context);
  if (request.method === "DELETE") {
    await deleteArticle(context.db, context.env, params.id);
    return new Response(null, { status: 204, headers: NO_STORE });
  }
  const input = await parseArticleBody(request, ArticleUpdateSchema);
  return Response.json(await updateArticle(context.db, context.env, params.id, input), { headers: NO_STORE });
});
