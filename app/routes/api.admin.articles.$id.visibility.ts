import { setArticleVisibility } from "../features/articles/articles.server";
import { VisibilitySchema } from "../features/articles/articles.schema";
import { methodNotAllowed, NO_STORE, parseArticleBody } from "../features/articles/http.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.admin.articles.$id.visibility";

/** POST /api/admin/articles/{id}/visibility `{"isPublic"}` — flips isPublic only (docs/product-rules.md §4) → the table row. */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const { isPublic } = await parseArticleBody(request, VisibilitySchema);
  return Response.json(await setArticleVisibility(context.db, context.env, params.id, isPublic), { headers: NO_STORE });
});
