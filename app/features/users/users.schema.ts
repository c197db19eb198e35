import { z } from "#app/lib/zod.ts";
import { isSafeText } from "#app/lib/text.ts";
import { checkDisplayName, EMAIL_MAX, hasControlCharacters, PASSWORD_MAX, PASSWORD_MIN } from "./display-name";
import { normalizeFriendId } from "#app/lib/friend-id.ts";
import { usersMessages } from "./messages";
import { fieldKeys, validationError, type ValidationError } from "#app/lib/validation.ts";
import { USERS_FORM } from "./users-form";

/**
 * Form schemas shared by the pages (instant feedback) and their actions (the gate). Issue
 * messages are keys of usersMessages, so the same rule speaks Japanese or English.
 */
export type UsersMessageKey = keyof typeof usersMessages.ja;
const key = (k: UsersMessageKey) => k;

export const emailField = z
  .string()
  .trim()
  .max(EMAIL_MAX, key("errorEmailTooLong"))
  .refine((v) => !hasControlCharacters(v), key("errorEmailInvalid"))
  .pipe(z.email(key("errorEmailInvalid")));

const displayNameField = z.string().transform((raw, ctx) => {
  const checked = checkDisplayName(raw);
  if (checked.ok) return checked.value;
  const problems = {
    required: "errorDisplayNameRequired",
    tooLong: "errorDisplayNameTooLong",
    control: "errorDisplayNameControl",
    markup: "errorDisplayNameMarkup",
    reserved: "errorDisplayNameReserved",
  } as const;
  ctx.addIssue({ code: "custom", message: key(problems[checked.problem]) });
  return z.NEVER;
});

export const LoginSchema = z.object({
  email: emailField,
  password: z.string().min(1, key("errorCredentials")).max(PASSWORD_MAX, key("errorCredentials")).refine(isSafeText, key("errorCredentials")),
});

export const SignupSchema = z.object({
  displayName: displayNameField,
  email: emailField,
  password: z.string().min(PASSWORD_MIN, key("errorPasswordLength")).max(PASSWORD_MAX, key("errorPasswordLength")),
});

export const ProfileSchema = z.object({
  displayName: displayNameField,
  // Empty clears it; anything else must be 16 digits once normalised.
  friendId: z
    .string()
    .max(64, key("errorFriendId"))
    .transform((raw, ctx) => {
      if (raw.trim() === "") return null;
      const normalised = normalizeFriendId(raw);
      if (normalised) return normalised;
      ctx.addIssue({ code: "custom", message: key("errorFriendId") });
      return z.NEVER;
    }),
});

export type ProfileInput = z.output<typeof ProfileSchema>;

export type FieldErrors<F extends string> = Partial<Record<F, UsersMessageKey>>;

/** First issue per field, as message keys (lib/validation.ts). */
export function fieldErrors<F extends string>(error: z.ZodError): FieldErrors<F> {
  return fieldKeys(error, usersMessages.ja, USERS_FORM) as FieldErrors<F>;
}

/** An account form's schema failure as the one ValidationError (400 `invalid_input`, a message per field). */
export function usersFormError(error: z.ZodError): ValidationError {
  return validationError(error, USERS_FORM);
}

