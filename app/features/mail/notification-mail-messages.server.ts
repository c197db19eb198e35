import { defineMessages } from "#app/lib/i18n.tsx";

/**
 * The words of the notification mail (notification-mail.server.ts) around its notifications'
 * own lines, which the bell and push share (notifications/components/notification-text.ts): the
 * open button, the settings and unsubscribe notes, the daily digest's subject and intro.
 * Server only. Japanese is the source.
 */
export const notificationMailMessages = defineMessages({
  ja: {
    mailOpen: "トレポケで見る",
    mailSettings: "通知の設定を変える: {url}",
    mailUnsubscribe: "通知メールを止める（ログイン不要）: {url}",
    mailDigestSubject: { other: "未読のお知らせが{count}件あります" },
    mailDigestIntro: "前回のまとめ以降に届いた、まだ読んでいないお知らせです。",
  },
  en: {
    mailOpen: "Open in Torepoke",
    mailSettings: "Change your notification settings: {url}",
    mailUnsubscribe: "Stop notification mail (no sign-in needed): {url}",
    mailDigestSubject: { one: "{count} unread notification", other: "{count} unread notifications" },
    mailDigestIntro: "Notifications you have not read since the last digest.",
  },
});
