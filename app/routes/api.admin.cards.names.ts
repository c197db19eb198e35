import { cardAdminMessages } from "../features/cards/admin-messages";
import { CardNameCorrectionSchema } from "../features/cards/card-admin.schema";
import { correctCardName } from "../features/cards/catalogue.server";
import { CardError } from "../features/cards/errors";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
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
