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
  /** "2026/01/11": articles, deck recipes and the blocks that link to them. */
  date: { year: "numeric", month: "2-digit", day: "2-digit" },
  /** "2026/01/11 0:30": when an editor's draft was kept. */
  shortDateTime: { dateStyle: "short", timeStyle: "short" },
  /** "2026/01/11 0:30" (English "11 Jan 2026, 00:30"): admin lists. */
  mediumDateTime: { dateStyle: "medium", timeStyle: "short" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function formatter(locale: Locale, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const key = `${locale}:${style}`;
  let format = formats.get(key);
  if (!format) {
    // Whole dates read better in British order in English (21 November 2026, 21/11/2026).
    const language = style !== "dateTime" && locale === "en" ? "en-GB" : tag(locale);
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

/** A day in Japan time, e.g. "2026/01/11" (the game's and the players' day). Empty for an unreadable date. */
export function tokyoDate(iso: string, locale: Locale): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : formatter(locale, "date").format(date);
}

/** A short date and time in Japan time, e.g. "2026/01/11 0:30". */
export function tokyoShortDateTime(iso: string, locale: Locale): string {
  return formatter(locale, "shortDateTime").format(new Date(iso));
}

/** A date and time for admin lists, e.g. "2026/01/11 0:30". */
export function tokyoMediumDateTime(iso: string, locale: Locale): string {
  return formatter(locale, "mediumDateTime").format(new Date(iso));
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
