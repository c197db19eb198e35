import { defineMessages } from "../../lib/i18n";

/** The admin アクセス解析 tab and the collection endpoint's refusals. */
export const analyticsMessages = defineMessages({
  ja: {
    errorOrigin: "このサイト以外からの送信は受け付けていません",
    errorInvalid: "送信内容の形式が正しくありません",
    errorRateLimited: "送信が多すぎます。しばらくしてからお試しください",
    errorPeriod: "期間の指定が正しくありません（開始日と終了日を YYYY-MM-DD で、最長366日まで）",
  },
  en: {
    errorOrigin: "Only this site may send analytics",
    errorInvalid: "The request body is not a valid analytics hit",
    errorRateLimited: "Too many requests. Please try again later",
    errorPeriod: "Invalid period (start and end as YYYY-MM-DD, at most 366 days)",
  },
});
export type AnalyticsMessageKey = keyof (typeof analyticsMessages)["ja"];
