import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { tradeErrorMessages, type TradeErrorMessageKey } from "./error-messages";

/** Every rule a trade request can break: HTTP status and the catalogue key of its message. */
const TRADE_ERRORS = {
  not_found: [404, "notFound"],
  forbidden: [403, "forbidden"],
  friend_id_required: [409, "friendIdRequired"],
  suspended: [403, "suspended"],
  too_many_open: [409, "tooManyOpen"],
  no_same_rarity_pair: [400, "noSameRarityPair"],
  not_tradeable: [400, "notTradeable"],
  unknown_card: [400, "unknownCard"],
  same_card_both_sides: [400, "sameCardBothSides"],
  duplicate_card: [400, "duplicateCard"],
  not_open: [409, "notOpen"],
  rule_closed: [409, "ruleClosed"],
  not_editable: [409, "notEditable"],
  bump_too_soon: [409, "bumpTooSoon"],
  rate_limited_post: [429, "rateLimitedPost"],
  rate_limited_respond: [429, "rateLimitedRespond"],
  rate_limited_report: [429, "rateLimitedReport"],
  own_offer: [400, "ownOffer"],
  blocked: [403, "blocked"],
  cannot_block_self: [400, "cannotBlockSelf"],
  negotiating_cannot_delete: [409, "negotiatingCannotDelete"],
  has_chat_cannot_delete: [409, "hasChatCannotDelete"],
  invalid_cursor: [400, "invalidCursor"],
  invalid_page: [400, "invalidPage"],
  bad_request: [400, "badRequest"],
  // What the offer and report schemas refuse (their messages are these catalogue keys).
  give_required: [400, "giveRequired"],
  any_both_sides: [400, "anyBothSides"],
  want_required: [400, "wantRequired"],
  too_many_cards: [400, "tooManyCards"],
  copies_range: [400, "copiesRange"],
  comment_too_long: [400, "commentTooLong"],
  report_reason_required: [400, "reportReasonRequired"],
  report_reason_too_long: [400, "reportReasonTooLong"],
} as const satisfies ErrorTable<TradeErrorMessageKey>;

export type TradeErrorCode = keyof typeof TRADE_ERRORS;

/** A rule a trade request broke (docs/decisions/009). */
export class TradeError extends AppError<TradeErrorCode> {
  constructor(code: TradeErrorCode, params?: Params) {
    super(tradeErrorMessages, TRADE_ERRORS, code, params);
  }
}
