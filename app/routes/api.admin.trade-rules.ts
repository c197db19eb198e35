import { tradeRulesMessages } from "../features/trades/trade-rules-messages";
import { tradeRuleFieldErrors, TradeRuleChangeSchema } from "../features/trades/trade-rules.schema";
import { addTradeRuleChange } from "../features/trades/trade-rules.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import { localeFromRequest, translate } from "../lib/i18n";
import type { Route } from "./+types/api.admin.trade-rules";


/**
 * POST /api/admin/trade-rules `{scope, target, tradeable, effectiveAt, until?, note}` (times as
 * Japan-time `YYYY-MM-DDTHH:mm`) → 201 with the changes written. Admins only (401 / 403 JSON); a
 * field that breaks a rule answers 400 `{"error", "code", "fields"}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed", code: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  const viewer = await requireApiAdmin(request, context);
  const locale = localeFromRequest(request);
  const parsed = TradeRuleChangeSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) {
    const fields = Object.fromEntries(Object.entries(tradeRuleFieldErrors(parsed.error)).map(([field, key]) => [field, translate(tradeRulesMessages, locale, key)]));
    return Response.json({ error: Object.values(fields)[0] ?? translate(tradeRulesMessages, locale, "errInvalidRequest"), code: "invalid_request", fields }, { status: 400 });
  }
  const changes = await addTradeRuleChange(context.db, parsed.data, viewer.id);
  return Response.json({ changes }, { status: 201, headers: { "Cache-Control": "private, no-store" } });
});
