import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { chatMessages, type ChatMessageKey } from "./messages";

/**
 * Every way a chat request can fail: HTTP status and the catalogue key of its message. The codes
 * are also the socket protocol's `error` (acks) and `connect_error` messages.
 */
export const CHAT_ERRORS = {
  not_found: [404, "errorNotFound"],
  empty: [400, "errorEmpty"],
  too_long: [400, "errorTooLong"],
  blocked: [403, "errorBlocked"],
  // The other participant deleted their account: the room is read-only for good.
  partner_left: [410, "errorPartnerLeft"],
  rate_limited: [429, "errorRateLimited"],
  report_rate_limited: [429, "errorReportRateLimited"],
  step_not_allowed: [409, "errorStepNotAllowed"],
  offer_unavailable: [409, "errorOfferUnavailable"],
  // The trade board's own code for a card the rules close; 409 here: the rules changed under the room.
  not_tradeable: [409, "errorNotTradeable"],
  // 何でも可: 条件合意 waits until the partner names the card (chooseAnyCard), which must exist and
  // be of a rarity the offer's other side holds.
  card_not_chosen: [409, "errorCardNotChosen"],
  card_not_found: [404, "errorCardNotFound"],
  card_wrong_rarity: [400, "errorCardWrongRarity"],
  card_not_tradeable: [409, "errorCardNotTradeable"],
  // The owner shares their collection for trades: the card must be one of their real choices
  // (spare when the offer gives 何でも可, wanted when it wants 何でも可; docs/decisions/045).
  card_not_owner_spare: [400, "errorCardNotOwnerSpare"],
  card_not_owner_wanted: [400, "errorCardNotOwnerWanted"],
  suspended: [403, "errorSuspended"],
  unauthorized: [401, "errorLoginRequired"],
  invalid: [400, "errorUnknown"],
  // Our failure, not the sender's (the database or Redis unreachable): nothing was stored, and the
  // client keeps the message and sends it again.
  unavailable: [503, "errorUnavailable"],
} as const satisfies ErrorTable<ChatMessageKey>;

export type ChatErrorCode = keyof typeof CHAT_ERRORS;

/** A chat rule a request or socket event broke (docs/decisions/009). */
export class ChatError extends AppError<ChatErrorCode> {
  constructor(code: ChatErrorCode, params?: Params) {
    super(chatMessages, CHAT_ERRORS, code, params);
  }
}

/** The catalogue key for a code the server sent (unknown codes read as a general failure). */
export function chatErrorKey(code: string): ChatMessageKey {
  return code in CHAT_ERRORS ? CHAT_ERRORS[code as ChatErrorCode][1] : "errorUnknown";
}
