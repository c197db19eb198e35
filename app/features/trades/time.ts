import type { Locale } from "../../lib/i18n";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

// Intl formatters are costly to build and a board page formats dozens of times: one per locale.
const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/**
 * "3時間前" / "in 2 days", relative to `now` handed down by the loader, so the server render and
 * hydration print the same text.
 */
export function relativeTime(iso: string, now: string, locale: Locale, justNow: string): string {
  const diff = new Date(iso).getTime() - new Date(now).getTime();
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale === "ja" ? "ja-JP" : "en-US", { numeric: "auto" })));
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.trunc(diff / ms), unit);
  }
  return justNow;
}

/** A date-time in Japan time (the game's and the players' clock). */
export function tokyoDateTime(iso: string, locale: Locale): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "ja" ? "ja-JP" : "en-US", {
      timeZone: "Asia/Tokyo",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}
