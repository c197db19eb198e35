import { defineMessages } from "#app/lib/i18n.tsx";

/**
 * The account's state as the profile's account card, the account settings and the sign-up's
 * check-mail page name it. A catalogue of its own so that the profile, read every day, does not
 * download the account pages' texts for these few (docs/decisions/027). Japanese is the source.
 */
export const accountStatusMessages = defineMessages({
  ja: {
    verifyTitle: "メールアドレスの確認",
    verifyVerified: "確認済み",
    verifyUnverified: "未確認",
    verifyNoAddress: "メールアドレス未設定",
    settingsHeading: "アカウント設定",
    settingsSummary: "メールアドレス・パスワードの変更、ログイン中の端末、データのダウンロード、退会",
    settingsOpen: "アカウント設定を開く",
  },
  en: {
    verifyTitle: "Email verification",
    verifyVerified: "Verified",
    verifyUnverified: "Not verified",
    verifyNoAddress: "No email address",
    settingsHeading: "Account settings",
    settingsSummary: "Change your email address or password, signed-in devices, download your data, delete your account",
    settingsOpen: "Open account settings",
  },
});
