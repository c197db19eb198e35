import { createContext, useCallback, useContext } from "react";

/**
 * Interface language. Japanese is the source language (docs/product-rules.md's wording is exact); English is
 * a full translation. Each feature keeps its own catalogue (`features/<domain>/messages.ts`)
 * made with defineMessages, so the English side must have every key the Japanese side has.
 */
export type Locale = "ja" | "en";
export const LOCALES: readonly Locale[] = ["ja", "en"];
export const LOCALE_COOKIE = "lang";

/**
 * A message is a template, or for counted things one template per plural category of the
 * language (`{ one: "{count} card", other: "{count} cards" }`), chosen by `params.count` with
 * Intl.PluralRules. Japanese has one form, so its side is usually a plain string.
 */
export type Message = string | ({ other: string } & Partial<Record<Intl.LDMLPluralRule, string>>);
export type Catalogue<K extends string> = { ja: Record<K, Message>; en: Record<K, Message> };

export function defineMessages<K extends string>(catalogue: { ja: Record<K, Message>; en: Record<NoInfer<K>, Message> }): Catalogue<K> {
  return catalogue;
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

function pick(message: Message, locale: Locale, params?: Params): string {
  if (typeof message === "string") return message;
  const count = params?.count;
  if (typeof count !== "number") return message.other;
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return message[rules.select(count)] ?? message.other;
}

export type Params = Record<string, string | number>;

/** `{name}` placeholders are replaced by params; a missing param is left visible, not blank. */
export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translate<K extends string>(catalogue: Catalogue<K>, locale: Locale, key: K, params?: Params): string {
  return format(pick(catalogue[locale][key] ?? catalogue.ja[key], locale, params), params);
}

export const LocaleContext = createContext<Locale>("ja");
export const useLocale = () => useContext(LocaleContext);

/** `const t = useT(cardsMessages); t("empty")` */
export function useT<K extends string>(catalogue: Catalogue<K>) {
  const locale = useLocale();
  return useCallback((key: K, params?: Params) => translate(catalogue, locale, key, params), [catalogue, locale]);
}

/** The language chosen with the JA/EN switch (a cookie), Japanese by default. */
const LOCALE_IN_COOKIE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=(ja|en)(?:;|$)`);

/** The language chosen with the JA/EN switch, from a Cookie header; Japanese by default. */
export function localeFromCookie(cookie: string | null | undefined): Locale {
  return (LOCALE_IN_COOKIE.exec(cookie ?? "")?.[1] as Locale | undefined) ?? "ja";
}

/**
 * docs/product-rules.md §4: the body carries a marker while the page language is not ja (the seed's translation
 * widget set one; our own switch keeps it so styles and scripts can rely on it): the class
 * `translated` and `data-translated` naming the language. Nothing while the page is Japanese.
 */
export function bodyLanguageMarker(locale: Locale): { className: string | undefined; "data-translated": Locale | undefined } {
  return locale === "ja" ? { className: undefined, "data-translated": undefined } : { className: "translated", "data-translated": locale };
}

export function localeFromRequest(request: Request): Locale {
  return localeFromCookie(request.headers.get("cookie"));
}
