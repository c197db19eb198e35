import type { Locale } from "./i18n";

/**
 * Times as the site shows them: in Japan time (the game's and the players' clock), 24-hour,
 * and relative ("3時間前"). Intl formatters are costly to build and a board page formats dozens
 * of times, so each is built once per language and style.
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

const tag = (locale: Locale) => (locale === "ja" ? "ja-JP" : "en-US");
const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();
const formats = new Map<string, Intl.DateTimeFormat>();

const STYLES = {
  /** "1/11 00:30": offers, chat messages, reports. */
  dateTime: { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false },
  /** "2026年1月11日": member since. */
  longDate: { dateStyle: "long" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function formatter(locale: Locale, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const key = `${locale}:${style}`;
  let format = formats.get(key);
  if (!format) {
    // The long date reads better in British order in English (21 November 2026).
    const language = style === "longDate" && locale === "en" ? "en-GB" : tag(locale);
    formats.set(key, (format = new Intl.DateTimeFormat(language, { timeZone: "Asia/Tokyo", ...STYLES[style] })));
  }
  return format;
}

/** A date and time in Japan time, e.g. "1/11 00:30". */
export function tokyoDateTime(iso: string, locale: Locale): string {
  return formatter(locale, "dateTime").format(new Date(iso));
}

/** A date in Japan time, written out, e.g. "2026年1月11日". */
export function tokyoLongDate(iso: string, locale: Locale): string {
  return formatter(locale, "longDate").format(new Date(iso));
}

/**
 * "3時間前" / "in 2 days", relative to `now` handed down by the loader, so the server render and
 * hydration print the same text.
 */
export function relativeTime(iso: string, now: string, locale: Locale, justNow: string): string {
  const diff = new Date(iso).getTime() - new Date(now).getTime();
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(tag(locale), { numeric: "auto" })));
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.trunc(diff / ms), unit);
  }
  return justNow;
}
