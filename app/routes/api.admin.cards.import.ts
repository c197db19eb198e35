import { z } from "#app/lib/zod.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { IMPORT_MAX_BYTES, importCardsFromCsv } from "#app/features/cards/import.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import type { Route } from "./+types/api.admin.cards.import";
import { errorResponse, methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { safeString } from "#app/lib/text.ts";

const ImportRequestSchema = z.object({ title: safeString().max(200), csvData: safeString(), newPackName: safeString().max(200).optional() });

/**
 * POST /api/admin/cards/import `{"title": packId, "csvData": text, "newPackName"?}` (with newPackName: a new pack of that id) → `{"count": n}` — the
 * docs/product-rules.md §7 importCardsFromCSV function. Admins only (401 / 403 JSON); errors are `{"error", "code"}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  // JSON only: a cross-site form cannot send it without a CORS preflight.
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return errorResponse(new CardError("invalid_request"), localeFromRequest(request), 415);
  }
  const input = await readInput(request, ImportRequestSchema, {
    messages: cardAdminMessages,
    fallback: "errInvalidRequest",
    // The body's limit (lib/body-limits.ts) leaves room for JSON escaping; the message names the CSV's own.
    tooLarge: () => new CardError("too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 }),
  });
  return Response.json(await importCardsFromCsv(context.db, input));
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
