import { z } from "#app/lib/zod.ts";
import { safeString } from "#app/lib/text.ts";
import { importDeckText } from "#app/features/decks/decks.server.ts";
import { NO_STORE } from "#app/features/decks/http.server.ts";
import { deckErrorMessages } from "#app/features/decks/error-messages.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
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
