import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { tradeRulesMessages, type TradeRulesMessageKey } from "./trade-rules-messages";

const TRADE_RULE_ERRORS = {
  not_tradeable_until: [400, "notTradeableUntil"],
  unknown_target: [400, "errUnknownTarget"],
  invalid_request: [400, "errInvalidRequest"],
} as const satisfies ErrorTable<TradeRulesMessageKey>;

/** A trade-rule problem: a card closed until a date, or an admin change naming nothing we know. */
export class TradeRuleError extends AppError<keyof typeof TRADE_RULE_ERRORS> {
  constructor(code: keyof typeof TRADE_RULE_ERRORS, params?: Params) {
    super(tradeRulesMessages, TRADE_RULE_ERRORS, code, params);
  }
}
