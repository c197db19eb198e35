import type { Locale } from "../../lib/i18n";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/**
 * "3時間前" / "in 2 days", relative to `now` handed down by the loader, so the server render and
 * hydration print the same text.
 */
export function relativeTime(iso: string, now: string, locale: Locale, justNow: string): string {
  const diff = new Date(iso).getTime() - new Date(now).getTime();
  const format = new Intl.RelativeTimeFormat(locale === "ja" ? "ja-JP" : "en-US", { numeric: "auto" });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.trunc(diff / ms), unit);
  }
  return justNow;
}

/** A date-time in Japan time (the game's and the players' clock). */
export function tokyoDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "ja" ? "ja-JP" : "en-US", {
    timeZone: "Asia/Tokyo",
    month: "numeric",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));
}
