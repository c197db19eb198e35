import { defineMessages } from "../../lib/i18n";

/** Web Push and the notification settings on the profile. */
export const pushMessages = defineMessages({
  ja: {
    title: "トレポケ",
    testTitle: "トレポケ（テスト通知）",
    testBody: "プッシュ通知が届きました。この端末でお知らせを受け取れます。",
    errorInvalidSubscription: "プッシュ通知の登録内容が正しくありません。",
    errorNoSubscription: "この端末ではまだプッシュ通知が有効になっていません。",
    errorInvalidSettings: "通知設定の内容を確認してください。",
    errorTooManyTests: "テスト通知は少し時間をおいてからお試しください。",
  },
  en: {
    title: "Torepoke",
    testTitle: "Torepoke (test notification)",
    testBody: "Push works: this device will receive your notifications.",
    errorInvalidSubscription: "The push subscription is not valid.",
    errorNoSubscription: "Push notifications are not turned on for a device yet.",
    errorInvalidSettings: "Please check the notification settings.",
    errorTooManyTests: "Please wait a moment before sending another test notification.",
  },
});

export type PushMessageKey = keyof (typeof pushMessages)["ja"];
