import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { accountMessages, type AccountMessageKey } from "./account-messages";

/** Refusals of the account lifecycle (reset, change of address or password, sessions, deletion). */
const ACCOUNT_ERRORS = {
  current_password_wrong: [400, "errorCurrentPassword"],
  password_wrong: [400, "errorPassword"],
  confirm_delete: [400, "errorConfirmDelete"],
  resend_limited: [429, "errorResendLimit"],
  address_change_limited: [429, "errorAddressChangeLimit"],
  account_locked: [429, "errorAccountLocked"],
  session_not_found: [404, "errorSessionNotFound"],
  invalid_token: [400, "errorInvalidToken"],
  email_same: [400, "changeEmailSame"],
  email_not_verified: [403, "verifyRequired"],
  line_unavailable: [503, "errorLineUnavailable"],
  last_login_method: [409, "errorLastLoginMethod"],
  recent_sign_in_required: [403, "errorRecentSignIn"],
  fresh_sign_in_required: [403, "errorFreshSignIn"],
} as const satisfies ErrorTable<AccountMessageKey>;

export type AccountErrorCode = keyof typeof ACCOUNT_ERRORS;

export class AccountError extends AppError<AccountErrorCode> {
  constructor(code: AccountErrorCode, params?: Params) {
    super(accountMessages, ACCOUNT_ERRORS, code, params);
  }
}
