/**
 * docs/product-rules.md §6 article categories. Kept apart from the table definition (schema/articles.ts) so the
 * browser code that names categories does not pull the ORM into its bundle.
 */
export const ARTICLE_CATEGORIES = ["news", "maintenance", "event", "guide", "deck-recipe"] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];
