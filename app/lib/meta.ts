import { defineMessages, translate, type Locale } from "./i18n";

/** The site's name and what a page without its own says (SPEC.md's wording in Japanese). */
export const siteMessages = defineMessages({
  ja: {
    siteName: "トレポケ",
    homeTitle: "トレポケ - ポケポケのトレード掲示板・カードデータベース",
    description: "ポケポケ（Pokémon TCG Pocket）のトレード掲示板とカードデータベース。欲しいカードと譲れるカードでトレード相手が見つかります。",
  },
  en: {
    siteName: "トレポケ",
    homeTitle: "トレポケ - Trade board and card database for Pokémon TCG Pocket",
    description: "A trade board and card database for Pokémon TCG Pocket. Find trading partners with the cards you want and the cards you can give.",
  },
});

/**
 * `<title>` and description tags for a page; every route uses it so no page goes untitled.
 * Without a title it is the home page's; without a description, the site's, in `locale`.
 */
export function pageMeta(title: string | undefined, description?: string, locale: Locale = "ja") {
  const t = (key: keyof (typeof siteMessages)["ja"]) => translate(siteMessages, locale, key);
  const text = description ?? t("description");
  return [
    { title: title ? `${title} | ${t("siteName")}` : t("homeTitle") },
    { name: "description", content: text },
    { property: "og:title", content: title ?? t("siteName") },
    { property: "og:description", content: text },
    { property: "og:site_name", content: t("siteName") },
    { property: "og:type", content: "website" },
  ];
}
