import { defineMessages } from "#app/lib/i18n.tsx";

/** The header's unread-chat badge, apart from the chat page's catalogue: every signed-in page shows it. */
export const unreadBadgeMessages = defineMessages({
  ja: { badgeLabel: "未読チャット {count}件" },
  en: { badgeLabel: { one: "{count} unread chat message", other: "{count} unread chat messages" } },
});
