import type { Locale } from "./i18n";

/**
 * Times as the site shows them: in Japan time (the game's and the players' clock), 24-hour,
 * and relative ("3時間前"). Intl formatters are costly to build and a board page formats dozens
 * of times, so each is built once per language and style. Times read from input are read here too.
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
  /** "2026/01/11 0:30:05": the account's devices, where two sign-ins may share a minute. */
  mediumDateTimeSeconds: { dateStyle: "medium", timeStyle: "medium" },
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

/** A date and time to the second, e.g. "2026/01/11 0:30:05". */
export function tokyoDateTimeSeconds(iso: string, locale: Locale): string {
  return formatter(locale, "mediumDateTimeSeconds").format(new Date(iso));
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

/** Japan has no daylight saving time: Japan time is always UTC+9. */
const TOKYO_OFFSET_MS = 9 * 3_600_000;

/** The years a time typed into a form may name: the game's era with room to spare; 0000 or 20260 is a slip. */
export const INPUT_YEAR_MIN = 2000;
export const INPUT_YEAR_MAX = 2100;

const TOKYO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A datetime-local value (`2026-12-01T10:00`) read as Japan time: the instant as ISO, or null when
 * it names no real moment in INPUT_YEAR_MIN–MAX. JavaScript's own parse rolls 2026-02-30 over to
 * 2 March and reads 24:00 as the next day, and year 0000 reaches the database as year -1 (a 500).
 */
export function tokyoLocalToIso(value: string): string | null {
  const match = TOKYO_LOCAL.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  if (year < INPUT_YEAR_MIN || year > INPUT_YEAR_MAX || hour > 23 || minute > 59) return null;
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (wall.getUTCMonth() !== month - 1 || wall.getUTCDate() !== day) return null;
  return new Date(wall.getTime() - TOKYO_OFFSET_MS).toISOString();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A time as `toISOString()` wrote it (a paging cursor's): exactly that shape, a real calendar
 * moment (it survives the round trip, so no 2026-02-30 or 24:00), and not year 0000, which
 * PostgreSQL refuses. Anything else sent back to the database as a timestamp would fail the query.
 */
export function isIsoInstant(value: string): boolean {
  if (!ISO_INSTANT.test(value) || value.startsWith("0000")) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** The Asia/Tokyo calendar day of a moment (default: now) as YYYY-MM-DD — Japan has no daylight saving time — in the browser as on the server. */
export function tokyoDay(at: Date | number = Date.now()): string {
  return new Date(new Date(at).getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}
