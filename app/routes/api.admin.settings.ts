import { settingsMessages } from "#app/features/settings/messages.ts";
import { FIELD_MAX, SiteSettingsSchema } from "#app/features/settings/settings.schema.ts";
import { getSiteSettings, saveSiteSettings } from "#app/features/settings/settings.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.settings";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/admin/settings → the five docs/product-rules.md §3 fields. Admins only (401 / 403 JSON). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  return Response.json(await getSiteSettings(context.db), { headers: NO_STORE });
});

/**
 * PUT /api/admin/settings `{metaDescription, seoKeywords, ogTitle, ogDescription, ogImage}` →
 * the saved settings. Admin membership is checked again on every save (docs/product-rules.md §6); a field
 * that breaks a rule answers 400 `{"error", "code", "fields": {field: message}}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") throw methodNotAllowed("GET, PUT");
  const viewer = await requireApiAdmin(request, context);
  const input = await readInput(request, SiteSettingsSchema, { accept: ["json"], messages: settingsMessages, fallback: "errInvalidRequest", max: FIELD_MAX });
  const saved = await saveSiteSettings(context.db, input, viewer.id);
  return Response.json(saved, { headers: NO_STORE });
});
