import { defineMessages } from "../../lib/i18n";

/** Texts drawn into share images (Japanese: the site's language and its players'), and the deck page's download. */
export const shareMessages = defineMessages({
  ja: {
    siteName: "トレポケ",
    deckRecipe: "デッキレシピ",
    cardsTotal: "{count}枚",
    tier: "Tier {tier}",
    give: "譲",
    want: "求",
    more: "ほか{count}種",
    offerHeading: "トレード募集",
    endedClosed: "この募集は終了しました",
    endedExpired: "この募集は期限切れです",
    endedCompleted: "この取引は成立しました",
    endedNegotiating: "この募集は取引中です",
    cardDatabase: "カードデータベース",
    download: "シェア画像をダウンロード",
    downloadHint: "X や LINE に貼れる 1200×630 の画像です",
  },
  en: {
    siteName: "Torepoke",
    deckRecipe: "Deck recipe",
    cardsTotal: { one: "{count} card", other: "{count} cards" },
    tier: "Tier {tier}",
    give: "Give",
    want: "Want",
    more: "+{count} more",
    offerHeading: "Trade offer",
    endedClosed: "This offer is closed",
    endedExpired: "This offer has expired",
    endedCompleted: "This trade is complete",
    endedNegotiating: "This offer is being traded",
    cardDatabase: "Card database",
    download: "Download the share image",
    downloadHint: "A 1200×630 picture for X or LINE",
  },
});
