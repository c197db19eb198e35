import { z } from "../lib/zod";
import { safeString } from "../lib/text";
import { DeckError } from "../features/decks/errors";
import { importDeckText } from "../features/decks/decks.server";
import { deckErrorResponse, NO_STORE } from "../features/decks/http.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.admin.decks.import";

const ImportSchema = z.object({ text: safeString().max(20_000) });

/**
 * POST /api/admin/decks/import `{"text"}` — a pasted deck list (community text format) matched
 * to cards: `{cards, unmatched: [{line, text}]}`. Admins only; nothing is stored.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  await requireApiAdmin(request, context);
  const locale = localeFromRequest(request);
  try {
    const parsed = ImportSchema.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new DeckError("invalid_request");
    return Response.json(await importDeckText(context.db, parsed.data.text), { headers: NO_STORE });
  } catch (error) {
    if (error instanceof DeckError) return deckErrorResponse(error, locale);
    throw error;
  }
});
