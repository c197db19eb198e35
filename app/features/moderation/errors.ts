import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { moderationMessages } from "./messages";

type ModerationMessageKey = keyof (typeof moderationMessages)["ja"];

/**
 * What a report (通報) or its handling can break. The codes are the ones each screen already
 * answers with: an offer's report and the admin's handling speak like the trade board
 * (`rate_limited_report`), a chat message's report like the chat (`report_rate_limited`, `empty`).
 */
const OFFER_REPORT_ERRORS = {
  not_found: [404, "errorOfferNotFound"],
  own_offer: [400, "errorOwnOffer"],
  rate_limited_report: [429, "errorTooManyReports"],
} as const satisfies ErrorTable<ModerationMessageKey>;

const MESSAGE_REPORT_ERRORS = {
  not_found: [404, "errorRoomNotFound"],
  empty: [400, "errorReasonEmpty"],
  report_rate_limited: [429, "errorTooManyReports"],
} as const satisfies ErrorTable<ModerationMessageKey>;

type OfferReportCode = keyof typeof OFFER_REPORT_ERRORS;
type MessageReportCode = keyof typeof MESSAGE_REPORT_ERRORS;
export type ModerationErrorCode = OfferReportCode | MessageReportCode;

/** A rule a report or its handling broke (docs/decisions/009). */
export class ModerationError extends AppError<ModerationErrorCode> {
  constructor(about: "offer", code: OfferReportCode, params?: Params);
  constructor(about: "message", code: MessageReportCode, params?: Params);
  constructor(about: "offer" | "message", code: ModerationErrorCode, params?: Params) {
    const table = (about === "offer" ? OFFER_REPORT_ERRORS : MESSAGE_REPORT_ERRORS) as Record<ModerationErrorCode, readonly [number, ModerationMessageKey]>;
    super(moderationMessages, table, code, params);
  }
}
