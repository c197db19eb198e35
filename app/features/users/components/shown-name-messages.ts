import { defineMessages } from "#app/lib/i18n.tsx";

/**
 * A deleted account's name as pages show it (docs/decisions/016). Its own small catalogue: every
 * offer, chat and deck page shows names, and none of them needs the account pages' texts.
 */
export const shownNameMessages = defineMessages({
  ja: { deletedUser: "退会したユーザー" },
  en: { deletedUser: "Deleted user" },
});
