import type { Locale } from "#app/lib/i18n.tsx";

/** The page language inside a `meta` function: the root loader returns it for every page. */
export function localeOfMatches(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): Locale {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { locale?: Locale } | undefined;
  return root?.locale === "en" ? "en" : "ja";
}
