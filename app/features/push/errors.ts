import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { pushMessages, type PushMessageKey } from "./messages";

export const PUSH_ERRORS = {
  invalid_subscription: [400, "errorInvalidSubscription"],
  no_subscription: [400, "errorNoSubscription"],
  invalid_settings: [400, "errorInvalidSettings"],
  too_many_tests: [429, "errorTooManyTests"],
  too_many_subscribes: [429, "errorTooManySubscribes"],
  subscription_taken: [409, "errorSubscriptionTaken"],
} as const satisfies ErrorTable<PushMessageKey>;

export type PushErrorCode = keyof typeof PUSH_ERRORS;

/** A push or notification-settings rule a request broke. */
export class PushError extends AppError<PushErrorCode> {
  constructor(code: PushErrorCode) {
    super(pushMessages, PUSH_ERRORS, code);
  }
}
