import { defineMessages } from "#app/lib/i18n.tsx";

/** The home page. */
export const homeMessages = defineMessages({
  ja: {
    heroTitle: "ポケポケのトレード相手が見つかる掲示板",
    heroText: "譲れるカードと欲しいカードを登録すると、同じレアリティで交換できる相手が見つかります。",
    toBoard: "トレード掲示板を見る",
    toCards: "カードを探す",
    newestPack: "最新パック：{name}",
    newestPackFacts: "{date} 発売・{count}種類",
    packs: "パック一覧",
    packCardCount: "{count}枚",
    allPacks: "全{count}パックのカードを見る",
  },
  en: {
    heroTitle: "The board where you find trading partners for Pokémon TCG Pocket",
    heroText: "Register the cards you can give and the cards you want, and find people to trade with at the same rarity.",
    toBoard: "See the trade board",
    toCards: "Find cards",
    newestPack: "Newest pack: {name}",
    newestPackFacts: { one: "Released {date} · {count} card", other: "Released {date} · {count} cards" },
    packs: "Packs",
    packCardCount: { one: "{count} card", other: "{count} cards" },
    allPacks: { one: "See the cards of the {count} pack", other: "See the cards of all {count} packs" },
  },
});
