import { setArticleVisibility } from "#app/features/articles/articles.server.ts";
import { VisibilitySchema } from "#app/features/articles/articles.schema.ts";
import { methodNotAllowed, NO_STORE, parseArticleBody } from "#app/features/articles/http.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.admin.articles.$id.visibility";

/** POST /api/admin/articles/{id}/visibility `{"isPublic"}` — flips isPublic only (docs/product-rules.md §4) → the table row. */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const { isPublic } = await parseArticleBody(request, VisibilitySchema);
  return Response.json(await setArticleVisibility(context.db, context.env, params.id, isPublic), { headers: NO_STORE });
});
