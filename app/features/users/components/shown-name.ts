import { translate, useT, type Locale } from "#app/lib/i18n.tsx";
import { shownNameMessages } from "./shown-name-messages";
import { DELETED_USER_NAME } from "#app/features/users/display-name.ts";

/**
 * Another user's display name as a page shows it: a deleted account's row keeps the name
 * 退会したユーザー (no live account may take it), shown in the reader's language.
 */
export function shownName(name: string, locale: Locale): string {
  return name === DELETED_USER_NAME ? translate(shownNameMessages, locale, "deletedUser") : name;
}

/** Whether a name read with an offer or a room is a deleted account's (the name is reserved for it). */
export function isDeletedUser(name: string): boolean {
  return name === DELETED_USER_NAME;
}

/** shownName for components, in the page's language. */
export function useShownName(): (name: string) => string {
  const t = useT(shownNameMessages);
  return (name) => (name === DELETED_USER_NAME ? t("deletedUser") : name);
}
