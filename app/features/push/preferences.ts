import { NOTIFICATION_KINDS, type NotificationKind } from "#app/features/notifications/types.ts";

/**
 * A player's choice per kind of notification and channel (docs/architecture.md "Notifications (inbox)"): the inbox (site) shows
 * it or not; a push goes out at once or not; a mail goes out at once (when the notification is
 * still unread after a while), in the daily digest, or not at all.
 */
export type SiteChoice = "on" | "off";
export type PushChoice = "instant" | "off";
export type MailChoice = "instant" | "digest" | "off";
export type KindChoices = { site: SiteChoice; push: PushChoice; mail: MailChoice };
/** The channels that reach a player away from the site; quiet hours hold each one not exempted. */
export const QUIET_CHANNELS = ["push", "mail"] as const;
export type QuietChannel = (typeof QUIET_CHANNELS)[number];
/**
 * During quiet hours a push is held until they end ("hold") or sent without sound ("silent"), and
 * a mail (at once or the digest) is held until they end; a channel in `exempt` goes out as usual.
 */
export type QuietHours = { start: number; end: number; mode: "hold" | "silent"; exempt: QuietChannel[] } | null;

export type NotificationPreferences = {
  channels: Record<NotificationKind, KindChoices>;
  quiet: QuietHours;
  /** Notifications, pushes and mails quote a chat message's first line. */
  previews: boolean;
};

/** What a player hears before choosing: everything in the inbox and by push; mail for what needs an answer, offers in the digest. */
export const DEFAULT_CHOICES: Record<NotificationKind, KindChoices> = {
  message: { site: "on", push: "instant", mail: "instant" },
  response: { site: "on", push: "instant", mail: "instant" },
  match: { site: "on", push: "instant", mail: "digest" },
  step: { site: "on", push: "instant", mail: "instant" },
  expiring: { site: "on", push: "instant", mail: "off" },
  want: { site: "on", push: "instant", mail: "digest" },
  report: { site: "on", push: "off", mail: "off" },
  // 申請しました: the poster accepts the request in the game, so it is worth hearing at once.
  friend: { site: "on", push: "instant", mail: "instant" },
};

const SITE = new Set(["on", "off"]);
const PUSH = new Set(["instant", "off"]);
const MAIL = new Set(["instant", "digest", "off"]);

/**
 * The stored jsonb read back onto the defaults (unknown kinds and values are ignored). A kind the
 * player never chose for (one added after they saved) takes its default, except on a channel that
 * reaches them away from the site (push, mail) and that they had turned off for every kind they
 * did choose: a player who stopped all mail (the one-click unsubscribe) or all pushes is not
 * reached by a newer kind either. The inbox (site) has no such rule: it shows a kind unless that
 * kind is turned off (the inbox's SQL, shownInInboxOf in notifications.server.ts), and the
 * settings page says so, so a new kind can be turned off where it shows.
 */
export function resolveChoices(stored: unknown): Record<NotificationKind, KindChoices> {
  const out = {} as Record<NotificationKind, KindChoices>;
  const source = (stored && typeof stored === "object" ? stored : {}) as Record<string, Partial<Record<string, unknown>>>;
  const allOff = (channel: keyof KindChoices, valid: Set<string>) => {
    const chosen = Object.values(source).flatMap((s) => (s && typeof s === "object" && valid.has(s[channel] as string) ? [s[channel]] : []));
    return chosen.length > 0 && chosen.every((value) => value === "off");
  };
  const off = { push: allOff("push", PUSH), mail: allOff("mail", MAIL) };
  for (const kind of NOTIFICATION_KINDS) {
    const s = source[kind] ?? {};
    const d = DEFAULT_CHOICES[kind];
    out[kind] = {
      site: SITE.has(s.site as string) ? (s.site as SiteChoice) : d.site,
      push: PUSH.has(s.push as string) ? (s.push as PushChoice) : off.push ? "off" : d.push,
      mail: MAIL.has(s.mail as string) ? (s.mail as MailChoice) : off.mail ? "off" : d.mail,
    };
  }
  return out;
}

const JST_OFFSET_MIN = 9 * 60;

/** Minutes after midnight in Japan time. */
export function jstMinutes(at: Date): number {
  return Math.floor((at.getTime() / 60_000 + JST_OFFSET_MIN) % 1440);
}

/** Whether `at` falls in the quiet hours (a window may cross midnight: 23:00–07:00). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  if (!quiet || quiet.start === quiet.end) return false;
  const m = jstMinutes(at);
  return quiet.start < quiet.end ? m >= quiet.start && m < quiet.end : m >= quiet.start || m < quiet.end;
}

/** Whether the quiet hours hold `channel` at `at` (they are on, `at` is in them, and the channel is not exempted). */
export function quietHolds(quiet: QuietHours, channel: QuietChannel, at: Date): quiet is NonNullable<QuietHours> {
  return quiet !== null && !quiet.exempt.includes(channel) && inQuietHours(quiet, at);
}

/** The moment the quiet hours that hold `at` end (the next `end` in Japan time). */
export function quietHoursEnd(quiet: NonNullable<QuietHours>, at: Date): Date {
  const m = jstMinutes(at);
  let wait = (quiet.end - m + 1440) % 1440;
  if (wait === 0) wait = 1440;
  const base = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  return new Date(base.getTime() + wait * 60_000);
}

/** "HH:MM" ↔ minutes after midnight. */
export function parseClock(value: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export function formatClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A notification still unread this long after it was written (and the player away) is mailed. */
export const MAIL_DELAY_MINUTES = 10;
/** The daily digest goes out at this hour, Japan time. */
export const DIGEST_HOUR_JST = 8;
