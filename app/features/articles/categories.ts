import { ARTICLE_CATEGORIES, type ArticleCategory } from "#app/db/article-categories.ts";
import type { Locale } from "#app/lib/i18n.tsx";

export { ARTICLE_CATEGORIES, type ArticleCategory };

/** docs/product-rules.md §6 article category options (news is ニュース for articles). */
export const CATEGORY_LABELS: Record<ArticleCategory, Record<Locale, string>> = {
  news: { ja: "ニュース", en: "News" },
  maintenance: { ja: "メンテナンス", en: "Maintenance" },
  event: { ja: "イベント", en: "Events" },
  guide: { ja: "攻略", en: "Guides" },
  "deck-recipe": { ja: "デッキレシピ", en: "Deck recipes" },
};

export function isArticleCategory(value: unknown): value is ArticleCategory {
  return typeof value === "string" && (ARTICLE_CATEGORIES as readonly string[]).includes(value);
}

export const categoryLabel = (category: ArticleCategory, locale: Locale) => CATEGORY_LABELS[category][locale];
