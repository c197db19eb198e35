import { defineMessages } from "#app/lib/i18n.tsx";

/**
 * The header's bell and unread counts. Apart from the notifications page's catalogue: the header
 * is on every page, and only signed-in players see the bell.
 */
export const bellMessages = defineMessages({
  ja: {
    bellLabel: "お知らせ",
    bellUnread: { other: "お知らせ（未読{count}件）" },
    menuUnread: { other: "未読のお知らせ{count}件" },
  },
  en: {
    bellLabel: "Notifications",
    bellUnread: { one: "Notifications ({count} unread)", other: "Notifications ({count} unread)" },
    menuUnread: { one: "{count} unread notification", other: "{count} unread notifications" },
  },
});
