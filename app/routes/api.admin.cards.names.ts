import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { CardNameCorrectionSchema } from "#app/features/cards/card-admin.schema.ts";
import { correctCardName } from "#app/features/cards/catalogue.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.cards.names";

/**
 * POST /api/admin/cards/names `{cardId, name, reading?, note}` — 日本語名の修正: the card's
 * Japanese name with its source; start-up and catalogue updates keep it. Admins only.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const input = await readInput(request, CardNameCorrectionSchema, { accept: ["json"], messages: cardAdminMessages, fallback: "errNameInvalid", code: "invalid_request" });
  if (!(await correctCardName(context.db, input.cardId, input))) throw new CardError("not_found");
  return Response.json({ cardId: input.cardId, name: input.name, note: input.note }, { headers: { "Cache-Control": "private, no-store" } });
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
