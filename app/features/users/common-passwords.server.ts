import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * OWASP ASVS 5.0 (6.2.4, L1): a new password is checked against the most common passwords. The
 * list is zxcvbn-ts's "passwords-common" (about 49,000 entries from public breach corpora,
 * most common first), kept up to date by its maintainers; it is server-only, so it never
 * reaches a page's JavaScript. Compared without case: "PASSWORD" is as guessable as "password".
 */
let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

export function commonPasswordCount(): number {
  return dictionary["passwords-common"].length;
}
