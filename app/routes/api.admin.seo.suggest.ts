import { z } from "#app/lib/zod.ts";
import { seoMessages } from "#app/features/seo/messages.ts";
import { suggestSeo } from "#app/features/seo/suggest.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { SeoError } from "#app/features/seo/errors.ts";
import { errorFields, requestLog } from "#app/lib/logger.server.ts";
import type { Route } from "./+types/api.admin.seo.suggest";

const SuggestSchema = z.object({ title: z.string().max(500).default(""), content: z.string().max(200 * 1024).default("") });

/**
 * POST /api/admin/seo/suggest `{title, content}` → `{keywords, metaDescription}`, computed here
 * (suggest.server.ts). docs/product-rules.md §8's SEO情報の生成に失敗しました。再度お試しください。 only when
 * computing really fails. Admins only (401 / 403 JSON).
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const input = await readInput(request, SuggestSchema, { accept: ["json"], messages: seoMessages, fallback: "invalidRequest" });
  if (!input.title.trim() && !input.content.trim()) throw new SeoError("suggest_empty");
  try {
    return Response.json(await suggestSeo(context.db, input), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    requestLog(context).error("SEO suggestion failed", errorFields(error));
    throw new SeoError("suggest_failed");
  }
});
