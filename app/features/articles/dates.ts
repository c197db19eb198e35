import type { Locale } from "../../lib/i18n";

const formats = new Map<Locale, Intl.DateTimeFormat>();

/** A date in Japan time (2025/02/01), as the site's readers and the game count days. */
export function tokyoDate(iso: string, locale: Locale): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "ja-JP", { timeZone: "Asia/Tokyo", year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(locale, format);
  }
  return format.format(new Date(iso));
}
