import { settingsMessages } from "../features/settings/messages";
import { settingsFieldErrors, SiteSettingsSchema } from "../features/settings/settings.schema";
import { getSiteSettings, saveSiteSettings } from "../features/settings/settings.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import { localeFromRequest, translate } from "../lib/i18n";
import type { Route } from "./+types/api.admin.settings";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/admin/settings → the five SPEC.md §3 fields. Admins only (401 / 403 JSON). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  return Response.json(await getSiteSettings(context.db), { headers: NO_STORE });
});

/**
 * PUT /api/admin/settings `{metaDescription, seoKeywords, ogTitle, ogDescription, ogImage}` →
 * the saved settings. Admin membership is checked again on every save (SPEC.md §6); a field
 * that breaks a rule answers 400 `{"error", "fields": {field: message}}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "GET, PUT" } });
  const viewer = await requireApiAdmin(request, context);
  const locale = localeFromRequest(request);
  // 400 when not JSON, 413 past the limit (thrown as its JSON answer).
  const body = await readJsonBody(request);
  const parsed = SiteSettingsSchema.safeParse(body);
  if (!parsed.success) {
    const fields = settingsFieldErrors(parsed.error, (key, params) => translate(settingsMessages, locale, key, params));
    const first = Object.values(fields)[0] ?? translate(settingsMessages, locale, "errInvalidRequest");
    return Response.json({ error: first, fields }, { status: 400 });
  }
  const saved = await saveSiteSettings(context.db, parsed.data, viewer.id);
  return Response.json(saved, { headers: NO_STORE });
});
