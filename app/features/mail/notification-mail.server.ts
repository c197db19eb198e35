import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import type { Logger } from "#app/lib/logger.server.ts";
import { enqueueMail, type MailMessage } from "./mail.server";
import { renderMail } from "./templates.server";
import { getNotificationForDelivery, stillAllowed } from "#app/features/notifications/notifications.server.ts";
import { notificationPreview, notificationText } from "#app/features/notifications/components/notification-text.ts";
import { NOTIFICATION_KINDS, type NotificationView } from "#app/features/notifications/types.ts";
import { defineDeliveryKind, enqueueDelivery, rearmDelivery, registerDeliveryHandler } from "#app/features/outbox/outbox.server.ts";
import { z } from "#app/lib/zod.ts";
import type { NotificationChannel } from "#app/features/push/channels.server.ts";
import { notificationMailMessages } from "./notification-mail-messages.server";
import { DEFAULT_CHOICES, DIGEST_HOUR_JST, MAIL_DELAY_MINUTES, getNotificationPreferences, getNotificationWithPreferences, quietHolds, quietHoursEnd } from "#app/features/push/preferences.server.ts";
import { presence } from "#app/features/push/presence.server.ts";
import { startSweep } from "#app/lib/sweep.server.ts";
import { signToken, verifySignedToken } from "#app/lib/signed-token.server.ts";

/**
 * The outbox kind of "mail this notification if it is still unread": payload {id, n}, n = its
 * count when the check was armed (rows queued before n was added have none).
 */
export const NOTICE_MAIL_CHECK = defineDeliveryKind("notify-mail", z.object({ id: z.string(), n: z.number().int().optional() }));

/** A notification's one mail check (re-armed, not repeated: rearmDelivery). */
const mailCheckKey = (id: string) => `notify-mail:${id}`;

export type MailChannelOptions = { siteUrl: string; authSecret: string; delayMs?: number };

// Unsubscribe links: the user id signed with the auth secret (app/lib/signed-token.server.ts), so
// the link works without a session and nobody can stop another player's mail.
const UNSUBSCRIBE = "mail-unsubscribe";

export function unsubscribeToken(secret: string, userId: string): string {
  return signToken(secret, UNSUBSCRIBE, userId);
}

/** The user a valid token names, or null. */
export function verifyUnsubscribeToken(secret: string, token: string | null): string | null {
  return verifySignedToken(secret, UNSUBSCRIBE, token);
}

export function unsubscribeUrl(options: MailChannelOptions, userId: string): string {
  return `${options.siteUrl}/notifications/unsubscribe?token=${unsubscribeToken(options.authSecret, userId)}`;
}

/** A notification mail: its own lines, the link to where it happened, the settings and the one-click unsubscribe. */
function notificationMail(options: MailChannelOptions, to: { userId: string; email: string; locale: Locale }, subject: string, paragraphs: string[], href: string): MailMessage {
  const t = (key: "mailOpen" | "mailSettings" | "mailUnsubscribe", params?: Record<string, string>) => translate(notificationMailMessages, to.locale, key, params);
  const unsubscribe = unsubscribeUrl(options, to.userId);
  const message = renderMail(
    {
      subject,
      paragraphs,
      action: { label: t("mailOpen"), url: `${options.siteUrl}${href}` },
      notes: [t("mailSettings", { url: `${options.siteUrl}/profile#notification-settings` }), t("mailUnsubscribe", { url: unsubscribe })],
    },
    { locale: to.locale, siteUrl: options.siteUrl, to: to.email },
  );
  // RFC 8058 one-click: the mail client POSTs "List-Unsubscribe=One-Click" to the URL, no session needed.
  return { ...message, headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } };
}

type Recipient = { email: string; email_verified: boolean };

/** Mail goes only to a verified address of an account that still exists. */
async function recipient(db: Db, userId: string): Promise<string | null> {
  const [row] = await rowsOf<Recipient>(
    db,
    sql`select u.email, u.email_verified from users u
        where u.id = ${userId} and not exists (select 1 from profiles p where p.user_id = u.id and p.deleted_at is not null)`,
  );
  return row && row.email_verified ? row.email : null;
}

/**
 * E-mail for a player who is away: a notification whose kind is mailed "at once" is mailed when a
 * check `delayMs` (10 minutes) after one of its events finds it still unread and the player with
 * no live connection. One mail per notification (a room's notification stays one until read).
 * A notification has one check row, not one per event (docs/decisions/048): an event arms it
 * unless it is already waiting (then it runs at the earlier time and sees the later events too);
 * a check that finds the player here while later events came since arms it again for
 * `delayMs` after the latest.
 */
export function createMailChannel(options: MailChannelOptions): NotificationChannel {
  const delayMs = options.delayMs ?? MAIL_DELAY_MINUTES * 60_000;
  // The checks this process armed, and when they are due. A check row waiting for its time cannot
  // be claimed before it, and an event elsewhere leaves a waiting row as it is: until then it is
  // still there and will see this event, so a chat's further messages write nothing for it.
  const armed = new Map<string, number>();
  return {
    name: "mail",
    async plan(db, event, now) {
      if (event.choices.mail !== "instant") return;
      if ((armed.get(event.id) ?? 0) > now.getTime() + 1000) return;
      const runAt = new Date(now.getTime() + delayMs);
      if (!(await rearmDelivery(db, NOTICE_MAIL_CHECK, { payload: { id: event.id, n: event.n }, runAt, dedupeKey: mailCheckKey(event.id) }))) return;
      if (armed.size >= ARMED_KEPT) {
        for (const [id, due] of armed) if (due <= now.getTime()) armed.delete(id);
        if (armed.size >= ARMED_KEPT) armed.clear();
      }
      armed.set(event.id, runAt.getTime());
    },
  };
}

/** Checks a process remembers having armed (an optimisation only: a forgotten one costs one statement). */
const ARMED_KEPT = 20_000;

export function registerNotificationMailDelivery(db: Db, options: MailChannelOptions, log?: Logger): void {
  const delayMs = options.delayMs ?? MAIL_DELAY_MINUTES * 60_000;
  registerDeliveryHandler(NOTICE_MAIL_CHECK, async ({ id, n: armedAt }) => {
    const found = await getNotificationWithPreferences(db, id);
    if (!found) return;
    const { notification: n, prefs } = found;
    if (n.read || prefs.channels[n.kind].mail !== "instant") return;
    const now = new Date();
    if (quietHolds(prefs.quiet, "mail", now)) {
      // Quiet hours hold the mail: the same check runs again when they end.
      const end = quietHoursEnd(prefs.quiet, now);
      await enqueueDelivery(db, NOTICE_MAIL_CHECK, { payload: { id, n: n.count }, runAt: end, dedupeKey: `notify-mail:${id}:quiet:${end.toISOString()}` });
      return;
    }
    if (await presence().isOnline(n.userId)) {
      // The player is here now. Events since the one this check was armed for are each owed a look
      // `delayMs` after them: one look, after the latest, stands for them all.
      if (armedAt !== undefined && n.count > armedAt) {
        await rearmDelivery(db, NOTICE_MAIL_CHECK, { payload: { id, n: n.count }, runAt: new Date(Date.parse(n.at) + delayMs), dedupeKey: mailCheckKey(id) });
      }
      return;
    }
    const email = await recipient(db, n.userId);
    if (!email) return;
    const mailed = await db.transaction(async (tx) => {
      // The notification and every other of its room still unread, not yet mailed and of a kind
      // mailed "instant" (a 交渉 and its first message fall due a second apart): one mail. Locked in id order:
      // of two checks of one room at once, the second waits, then finds the rows the first mailed.
      const due = await rowsOf<{ id: string }>(
        tx,
        sql`select n.id from notifications n left join notification_preferences np on np.user_id = n.user_id
            where n.user_id = ${n.userId} and n.read_at is null and n.mailed_at is null and ${stillAllowed}
              and (n.id = ${id}::uuid or (n.room_id = ${n.roomId}::uuid and ${mailChoice} = 'instant'))
            order by n.id for update of n`,
      );
      // Only a check that mails its own notification sends anything. One whose notification was
      // already mailed (a room's message bumped after its mail) marks nothing: another row of the
      // room (a step that came since) has a check of its own, due its own delay after it, which
      // mails it with what else of the room is unmailed then. (Marked here, it went out early, or,
      // under the key of the earlier mail, not at all.)
      if (!due.some((row) => row.id === id)) return false;
      await rowsOf(tx, sql`update notifications set mailed_at = now() where id in (${sql.join(due.map((row) => sql`${row.id}::uuid`), sql`, `)}) returning id`);
      const others = due.filter((row) => row.id !== id);
      const items: NotificationView[] = [n];
      for (const row of others) {
        const item = await getNotificationForDelivery(tx, row.id);
        if (item) items.push(item);
      }
      items.sort((a, b) => a.at.localeCompare(b.at));
      const lines = items.flatMap((item) => [notificationText(item, prefs.locale), notificationPreview(item, prefs.locale)]).filter((line): line is string => line !== null);
      const message = notificationMail(options, { userId: n.userId, email, locale: prefs.locale }, notificationText(items[0], prefs.locale), lines, n.href);
      // Keyed on the notification this check marked: a row is marked once, so the key is never
      // one an earlier mail (its outbox row kept a week) holds, and a mail is never dropped as a repeat.
      await enqueueMail(tx, message, { dedupeKey: `notification-mail:${id}` });
      return true;
    });
    if (!mailed) return;
    log?.debug("notification mailed", { id });
  }, { retryUnexpected: true });
}

const DAY_MS = 86_400_000;

/** The latest digest moment (DIGEST_HOUR_JST o'clock in Japan) at or before `now`. */
export function digestBoundary(now: Date): Date {
  const jst = new Date(now.getTime() + 9 * 3600_000);
  const atHour = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), jst.getUTCDate(), DIGEST_HOUR_JST) - 9 * 3600_000;
  return new Date(atHour <= now.getTime() ? atHour : atHour - DAY_MS);
}

/**
 * The effective mail choice of notification `n` for its owner, in SQL, as resolveChoices reads it:
 * the stored choice, else off when every stored choice is off (the one-click unsubscribe), else the
 * default.
 */
const mailChoice = sql.raw(
  `coalesce(np.channels -> n.kind ->> 'mail', case when (select bool_and(e.value ->> 'mail' = 'off') from jsonb_each(np.channels) e where e.value ->> 'mail' in ('instant', 'digest', 'off')) then 'off' else case n.kind ${NOTIFICATION_KINDS.map((k) => `when '${k}' then '${DEFAULT_CHOICES[k].mail}'`).join(" ")} end end)`,
);

/**
 * The daily digest: at DIGEST_HOUR_JST each player with unread, not yet mailed notifications of
 * kinds they chose "まとめて" for gets one mail listing them. Run by a timer on every instance:
 * claiming the day's boundary on the player's preferences row makes it once.
 */
export async function queueDigests(db: Db, options: MailChannelOptions, now = new Date()): Promise<number> {
  const boundary = digestBoundary(now);
  const since = new Date(boundary.getTime() - DAY_MS);
  const candidates = await rowsOf<{ user_id: string }>(
    db,
    sql`select distinct n.user_id from notifications n
        left join notification_preferences np on np.user_id = n.user_id
        where n.read_at is null and n.mailed_at is null and n.created_at > ${since.toISOString()}::timestamptz and n.created_at <= ${boundary.toISOString()}::timestamptz
          and ${mailChoice} = 'digest'
          and (np.digest_sent_at is null or np.digest_sent_at < ${boundary.toISOString()}::timestamptz)`,
  );
  let sent = 0;
  for (const { user_id: userId } of candidates) {
    // Quiet hours hold the digest too: a later sweep (same boundary, not yet claimed) sends it once they end.
    if (quietHolds((await getNotificationPreferences(db, userId)).quiet, "mail", now)) continue;
    const email = await recipient(db, userId);
    if (!email) continue;
    const queued = await db.transaction(async (tx) => {
      const claimed = await rowsOf(
        tx,
        sql`insert into notification_preferences (user_id, digest_sent_at) values (${userId}, ${boundary.toISOString()}::timestamptz)
            on conflict (user_id) do update set digest_sent_at = excluded.digest_sent_at
              where notification_preferences.digest_sent_at is null or notification_preferences.digest_sent_at < excluded.digest_sent_at
            returning user_id`,
      );
      if (!claimed.length) return false;
      const ids = await rowsOf<{ id: string }>(
        tx,
        sql`update notifications n set mailed_at = now()
            from (select n.id from notifications n left join notification_preferences np on np.user_id = n.user_id
                  where n.user_id = ${userId} and n.read_at is null and n.mailed_at is null
                    and n.created_at > ${since.toISOString()}::timestamptz and n.created_at <= ${boundary.toISOString()}::timestamptz
                    and ${mailChoice} = 'digest' and ${stillAllowed}) d
            where n.id = d.id returning n.id`,
      );
      if (!ids.length) return false;
      const prefs = await getNotificationPreferences(tx, userId);
      const items: NotificationView[] = [];
      for (const { id } of ids) {
        const n = await getNotificationForDelivery(tx, id);
        if (n) items.push(n);
      }
      items.sort((a, b) => b.at.localeCompare(a.at));
      const subject = translate(notificationMailMessages, prefs.locale, "mailDigestSubject", { count: items.length });
      const lines = items.map((n) => [`・${notificationText(n, prefs.locale)}`, notificationPreview(n, prefs.locale), `${options.siteUrl}${n.href}`].filter(Boolean).join("\n  "));
      const message = notificationMail(options, { userId, email, locale: prefs.locale }, subject, [translate(notificationMailMessages, prefs.locale, "mailDigestIntro"), ...lines], "/notifications");
      await enqueueMail(tx, message, { dedupeKey: `digest:${userId}:${boundary.toISOString()}` });
      return true;
    });
    if (queued) sent++;
  }
  return sent;
}

/** Digests are looked for this often; a digest is at most this late. */
export const DIGEST_SWEEP_MS = 5 * 60_000;

export function startDigests(db: Db, options: MailChannelOptions, log: Logger): { stop(): void } {
  return startSweep({ run: () => queueDigests(db, options), firstAfterMs: 15_000, everyMs: DIGEST_SWEEP_MS, log, did: "notification digests queued", failed: "notification digests failed" });
}
