import { defineMessages } from "#app/lib/i18n.tsx";

/** The frame of every mail the site sends (features/mail/templates.server.ts). */
export const mailMessages = defineMessages({
  ja: {
    siteName: "トレポケ",
    subjectPrefix: "【トレポケ】",
    greeting: "{name} さん",
    linkFallback: "ボタンが押せない場合は、次のURLをブラウザに貼り付けてください。",
    footerNoReply: "このメールは送信専用のアドレスから送信しています。返信はできません。",
    footerNotYou: "心当たりがない場合は、このメールを破棄してください。",
    footerSite: "トレポケ（ポケポケのトレード掲示板） {siteUrl}",
  },
  en: {
    siteName: "Torepoke",
    subjectPrefix: "[Torepoke] ",
    greeting: "Hello {name},",
    linkFallback: "If the button does not work, paste this URL into your browser:",
    footerNoReply: "This mail was sent from an address that cannot receive replies.",
    footerNotYou: "If this was not you, you can ignore this mail.",
    footerSite: "Torepoke (Pokémon TCG Pocket trade board) {siteUrl}",
  },
});
