import { z } from "#app/lib/zod.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./display-name";
import { emailField, type UsersMessageKey } from "./users.schema";

/** Forms of the account lifecycle; issue messages are keys of usersMessages (as in users.schema.ts). */
const key = (k: UsersMessageKey) => k;
const newPassword = z.string().min(PASSWORD_MIN, key("errorPasswordLength")).max(PASSWORD_MAX, key("errorPasswordLength"));
const currentPassword = z.string().min(1, key("errorCredentials")).max(PASSWORD_MAX, key("errorCredentials"));

export const ForgotPasswordSchema = z.object({ email: emailField });
export const ResetPasswordSchema = z.object({ token: z.string().min(1).max(200), password: newPassword });
export const ChangeEmailSchema = z.object({ newEmail: emailField, currentPassword });
export const ChangePasswordSchema = z.object({ currentPassword, newPassword });
export const DeleteAccountSchema = z.object({ password: currentPassword, confirm: z.literal("on", key("errorInvalidRequest")) });
/** An account without a password (LINE only): adding an address, deletion. */
export const AddEmailSchema = z.object({ newEmail: emailField });
export const DeletePasswordlessSchema = z.object({ confirm: z.literal("on", key("errorInvalidRequest")) });
export const LinkLineSchema = z.object({ currentPassword });
