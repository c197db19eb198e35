import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { usersMessages, type UsersMessageKey } from "./messages";

/** Every way signing up, signing in or a session check can refuse: status and catalogue key. */
const USER_ERRORS = {
  login_required: [401, "errorLoginRequired"],
  suspended: [403, "errorSuspended"],
  admin_required: [403, "errorAdminRequired"],
  invalid_credentials: [401, "errorCredentials"],
  email_taken: [422, "errorEmailTaken"],
  email_invalid: [400, "errorEmailInvalid"],
  email_too_long: [400, "errorEmailTooLong"],
  password_length: [400, "errorPasswordLength"],
  password_common: [400, "errorPasswordCommon"],
  display_name_required: [400, "errorDisplayNameRequired"],
  display_name_too_long: [400, "errorDisplayNameTooLong"],
  display_name_control: [400, "errorDisplayNameControl"],
  display_name_markup: [400, "errorDisplayNameMarkup"],
  display_name_reserved: [400, "errorDisplayNameReserved"],
  invalid_request: [400, "errorInvalidRequest"],
  csrf: [403, "errorCsrf"],
  rate_limited: [429, "errorRateLimited"],
} as const satisfies ErrorTable<UsersMessageKey>;

export type UserErrorCode = keyof typeof USER_ERRORS;

/** An account or session refusal (docs/decisions/009). */
export class UserError extends AppError<UserErrorCode> {
  constructor(code: UserErrorCode, params?: Params) {
    super(usersMessages, USER_ERRORS, code, params);
  }
}

/** The admin page's refusal: the same code, docs/product-rules.md §6's text (without the API's "。"). */
export class AdminPageError extends AppError<"admin_required"> {
  constructor() {
    super(usersMessages, { admin_required: [403, "errorAdminRequiredPage"] }, "admin_required");
  }
}

/**
 * Better Auth's error codes (its own API, UPPER_CASE) as ours: /api/auth answers carry our code
 * and message, in the visitor's language, like every other API.
 */
export const FROM_BETTER_AUTH: Record<string, UserErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: "invalid_credentials",
  INVALID_PASSWORD: "invalid_credentials",
  USER_ALREADY_EXISTS: "email_taken",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email_taken",
  INVALID_EMAIL: "email_invalid",
  PASSWORD_TOO_SHORT: "password_length",
  PASSWORD_TOO_LONG: "password_length",
  VALIDATION_ERROR: "invalid_request",
  BAD_REQUEST: "invalid_request",
  INVALID_ORIGIN: "csrf",
  MISSING_OR_NULL_ORIGIN: "csrf",
};
