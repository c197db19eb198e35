import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { notificationsMessages, type NotificationsMessageKey } from "./messages";

export const NOTIFICATION_ERRORS = {
  not_found: [404, "notFound"],
  card_not_found: [404, "errorCardNotFound"],
  not_tradeable: [400, "errorNotTradeable"],
  too_many_wanted: [400, "errorTooManyWanted"],
  too_many_wanted_changes: [429, "errorTooManyWantedChanges"],
  invalid: [400, "errorInvalid"],
} as const satisfies ErrorTable<NotificationsMessageKey>;

export type NotificationErrorCode = keyof typeof NOTIFICATION_ERRORS;

/** A notifications or want-list rule a request broke (docs/decisions/009). */
export class NotificationError extends AppError<NotificationErrorCode> {
  constructor(code: NotificationErrorCode, params?: Params) {
    super(notificationsMessages, NOTIFICATION_ERRORS, code, params);
  }
}
