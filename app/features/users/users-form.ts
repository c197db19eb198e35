import type { ParseOptions } from "#app/lib/validation.ts";
import { DISPLAY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from "./display-name";
import { usersMessages, type UsersMessageKey } from "./messages";

/**
 * How the account forms' issues read: usersMessages, with the name and password limits in
 * {min}/{max}. Apart from the schemas (users.schema.ts), so a form's page reads it without zod.
 */
export const USERS_FORM = {
  messages: usersMessages,
  fallback: "errorInvalidRequest",
  root: "form",
  max: { displayName: DISPLAY_NAME_MAX, password: PASSWORD_MAX, newPassword: PASSWORD_MAX },
  min: { password: PASSWORD_MIN, newPassword: PASSWORD_MIN },
} satisfies ParseOptions<UsersMessageKey>;

export const MESSAGE_PARAMS = { min: PASSWORD_MIN, max: PASSWORD_MAX, nameMax: DISPLAY_NAME_MAX };
