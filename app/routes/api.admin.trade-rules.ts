import { tradeRulesMessages } from "../features/trades/trade-rules-messages";
import { TradeRuleChangeSchema } from "../features/trades/trade-rules.schema";
import { addTradeRuleChange } from "../features/trades/trade-rules.server";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
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
