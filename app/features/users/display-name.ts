/**
 * Rules shared by the sign-up form, the profile form and the auth hooks. The display name is
 * shown beside trade offers and in chat, so it stays short, printable and free of markup.
 */
export const DISPLAY_NAME_MAX = 20;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// C0/C1 controls, bidi overrides/isolates and zero-width characters: invisible or able to
// disguise a name as someone else's.
const INVISIBLE = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

/**
 * The name a deleted account's row keeps (docs/decisions/016): pages show it translated
 * (shown-name-messages "deletedUser", "Deleted user" in English), and no live account may take it or
 * its English form, so the name always means a deleted account.
 */
export const DELETED_USER_NAME = "退会したユーザー";
const RESERVED_NAMES = new Set([DELETED_USER_NAME, "deleted user"]);

export type DisplayNameProblem = "required" | "tooLong" | "control" | "markup" | "reserved";

export function checkDisplayName(raw: string): { ok: true; value: string } | { ok: false; problem: DisplayNameProblem } {
  const value = raw.normalize("NFC").trim();
  if (INVISIBLE.test(value)) return { ok: false, problem: "control" };
  if (value.length === 0) return { ok: false, problem: "required" };
  if (/[<>]/.test(value)) return { ok: false, problem: "markup" };
  if ([...value].length > DISPLAY_NAME_MAX) return { ok: false, problem: "tooLong" };
  if (RESERVED_NAMES.has(value.toLowerCase().replace(/\s+/gu, " "))) return { ok: false, problem: "reserved" };
  return { ok: true, value };
}

export function hasControlCharacters(value: string): boolean {
  return INVISIBLE.test(value);
}
