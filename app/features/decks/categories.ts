import type { DecksMessageKey } from "./messages";

/** docs/product-rules.md §6 deck category options and their labels (お知らせ, メンテナンス, イベント, デッキレシピ). */
export const CATEGORY_LABELS: Record<string, DecksMessageKey> = { news: "catNews", maintenance: "catMaintenance", event: "catEvent", "deck-recipe": "catDeckRecipe" };
export const TIER_MEANINGS: Record<number, DecksMessageKey> = { 1: "tier1", 2: "tier2", 3: "tier3", 4: "tier4" };
