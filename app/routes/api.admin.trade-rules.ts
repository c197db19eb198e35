import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange } from "#app/features/trades/trade-rules.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.trade-rules";


/**
 * POST /api/admin/trade-rules `{scope, target, tradeable, effectiveAt, until?, note}` (times as
 * Japan-time `YYYY-MM-DDTHH:mm`) → 201 with the changes written. Admins only (401 / 403 JSON); a
 * field that breaks a rule answers 400 `{"error", "code", "fields"}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiAdmin(request, context);
  const input = await readInput(request, TradeRuleChangeSchema, { accept: ["json"], messages: tradeRulesMessages, fallback: "errInvalidRequest", root: "scope", code: "invalid_request" });
  const changes = await addTradeRuleChange(context.db, input, viewer.id);
  return Response.json({ changes }, { status: 201, headers: { "Cache-Control": "private, no-store" } });
});

/** A GET answers 405 in the one refusal shape, naming the method the route takes. */
export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
