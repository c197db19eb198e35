import { createArticle, listAdminArticles } from "../features/articles/articles.server";
import { ArticleCreateSchema } from "../features/articles/articles.schema";
import { methodNotAllowed, NO_STORE, parseArticleBody } from "../features/articles/http.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.admin.articles";
import { readQuery } from "../lib/input.server";
import { z } from "../lib/zod";

/** GET /api/admin/articles?q= — every article (any state), newest first; admins only. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const { q } = readQuery(request, z.object({ q: z.string().optional() }));
  return Response.json({ articles: await listAdminArticles(context.db, { q }) }, { headers: NO_STORE });
});

/** POST /api/admin/articles — a new article (starts 非公開 unless isPublic is true) → 201 with the article. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const viewer = await requireApiAdmin(request, context);
  const input = await parseArticleBody(request, ArticleCreateSchema);
  const article = await createArticle(context.db, context.env, input, viewer.id);
  return Response.json(article, { status: 201, headers: NO_STORE });
});
