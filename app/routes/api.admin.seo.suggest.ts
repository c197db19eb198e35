import { z } from "../lib/zod";
import { seoMessages } from "../features/seo/messages";
import { suggestSeo } from "../features/seo/suggest.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import { localeFromRequest, translate } from "../lib/i18n";
import type { Route } from "./+types/api.admin.seo.suggest";

const SuggestSchema = z.object({ title: z.string().max(500).default(""), content: z.string().max(200 * 1024).default("") });

/**
 * POST /api/admin/seo/suggest `{title, content}` → `{keywords, metaDescription}`, computed here
 * (suggest.server.ts). SPEC.md §8's SEO情報の生成に失敗しました。再度お試しください。 only when
 * computing really fails. Admins only (401 / 403 JSON).
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  await requireApiAdmin(request, context);
  const locale = localeFromRequest(request);
  const refuse = (key: "invalidRequest" | "suggestEmpty", status = 400) => Response.json({ error: translate(seoMessages, locale, key) }, { status });
  const body = await readJsonBody(request);
  const parsed = SuggestSchema.safeParse(body);
  if (!parsed.success) return refuse("invalidRequest");
  if (!parsed.data.title.trim() && !parsed.data.content.trim()) return refuse("suggestEmpty");
  try {
    return Response.json(await suggestSeo(context.db, parsed.data), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    console.error("SEO suggestion failed", error);
    return Response.json({ error: translate(seoMessages, locale, "suggestFailed") }, { status: 500 });
  }
});
