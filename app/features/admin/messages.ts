import { defineMessages } from "../../lib/i18n";

/** The admin shell (SPEC.md §2 "Admin page", §6 roles, §8 messages). */
export const adminMessages = defineMessages({
  ja: {
    title: "管理画面",
    description: "トレポケの管理画面。記事・デッキ・カード・サイト設定を管理します。",
    heading: "管理画面",
    tabsLabel: "管理メニュー",
    preparing: "この機能は準備中です。",
    tabArticles: "記事管理",
    tabDatabase: "データベース",
    tabDecks: "デッキ管理",
    tabCards: "カード管理",
    tabSettings: "サイト設定",
    tabReports: "通報",
    statsUsers: "ユーザー数",
    statsTrades: "トレード数",
    statsChatRooms: "チャットルーム数",
    statsHeading: "データベース",
    loginRequired: "ログインが必要です",
    loginLink: "ログインする",
    forbidden: "管理者権限がありません",
    backHome: "トップページへ戻る",
  },
  en: {
    title: "Admin",
    description: "The Torepoke admin area: articles, decks, cards and site settings.",
    heading: "Admin",
    tabsLabel: "Admin sections",
    preparing: "This section is being prepared.",
    tabArticles: "Articles",
    tabDatabase: "Database",
    tabDecks: "Decks",
    tabCards: "Cards",
    tabSettings: "Site settings",
    tabReports: "Reports",
    statsUsers: "Users",
    statsTrades: "Trades",
    statsChatRooms: "Chat rooms",
    statsHeading: "Database",
    loginRequired: "You need to log in",
    loginLink: "Log in",
    forbidden: "You do not have administrator rights",
    backHome: "Back to the home page",
  },
});

export type AdminMessageKey = keyof (typeof adminMessages)["ja"];
