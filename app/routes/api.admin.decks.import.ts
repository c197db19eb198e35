import { z } from "../lib/zod";
import { safeString } from "../lib/text";
import { importDeckText } from "../features/decks/decks.server";
import { NO_STORE } from "../features/decks/http.server";
import { deckErrorMessages } from "../features/decks/error-messages";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
import type { Route } from "./+types/api.admin.decks.import";

const ImportSchema = z.object({ text: safeString().max(20_000) });

/**
 * POST /api/admin/decks/import `{"text"}` — a pasted deck list (community text format) matched
 * to cards: `{cards, unmatched: [{line, text}]}`. Admins only; nothing is stored.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const { text } = await readInput(request, ImportSchema, { accept: ["json"], messages: deckErrorMessages, fallback: "errInvalidRequest" });
  return Response.json(await importDeckText(context.db, text), { headers: NO_STORE });
});
