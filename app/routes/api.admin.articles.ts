import { createArticle, listAdminArticles } from "#app/features/articles/articles.server.ts";
import { ArticleCreateSchema } from "#app/features/articles/articles.schema.ts";
import { methodNotAllowed, NO_STORE, parseArticleBody } from "#app/features/articles/http.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.admin.articles";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

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
