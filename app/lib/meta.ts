export const SITE_NAME = "トレポケ";
export const DEFAULT_DESCRIPTION =
  "ポケポケ（Pokémon TCG Pocket）のトレード掲示板とカードデータベース。欲しいカードと譲れるカードでトレード相手が見つかります。";

/** `<title>` and description tags for a page; every route uses it so no page goes untitled. */
export function pageMeta(title: string | undefined, description = DEFAULT_DESCRIPTION) {
  return [
    { title: title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} - ポケポケのトレード掲示板・カードデータベース` },
    { name: "description", content: description },
    { property: "og:title", content: title ?? SITE_NAME },
    { property: "og:description", content: description },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: "website" },
  ];
}
