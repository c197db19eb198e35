import { applyCatalogueUpdateAsAdmin } from "#app/features/admin/catalogue-update.server.ts";
import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { CatalogueUpdateSchema } from "#app/features/cards/card-admin.schema.ts";
import { previewCatalogueUpload } from "#app/features/cards/catalogue-upload.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.cards.catalogue";

/**
 * POST /api/admin/cards/catalogue — カタログ更新. `{"step": "preview", "files": [{name, text}]}`
 * answers `{plan, digest}` and writes nothing; `{"step": "apply", files, digest, holds}` applies
 * that same plan in one transaction (409 when it is no longer the previewed one) and answers the
 * plan written. Admins only (401 / 403 JSON); a file that cannot be read answers 400 naming why.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiAdmin(request, context);
  const input = await readInput(request, CatalogueUpdateSchema, { accept: ["json"], messages: cardAdminMessages, fallback: "errInvalidRequest", code: "invalid_request" });
  const headers = { "Cache-Control": "private, no-store" };
  if (input.step === "preview") return Response.json(await previewCatalogueUpload(context.db, input), { headers });
  if (!input.digest) throw new CardError("catalogue_stale");
  const plan = await applyCatalogueUpdateAsAdmin(context.db, input, input.digest, input.holds, viewer.id);
  return Response.json({ plan }, { headers });
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
