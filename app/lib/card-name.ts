import type { Locale } from "./i18n";

/** A card's name in the reader's language: in English the English name, when the catalogue has one. */
export function cardName(card: { name: string; nameEn?: string | null }, locale: Locale): string {
  return locale === "en" && card.nameEn ? card.nameEn : card.name;
}
