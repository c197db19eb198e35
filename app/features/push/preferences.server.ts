import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import {
  notificationForDelivery,
  notificationForDeliveryQuery,
  present,
  stillAllowed,
  unreadNotificationCount,
  type DeliveryRow,
} from "#app/features/notifications/notifications.server.ts";
import type { NotificationView } from "#app/features/notifications/types.ts";
import type { NotificationKind } from "#app/features/notifications/types.ts";
import { QUIET_CHANNELS, resolveChoices, type KindChoices, type NotificationPreferences } from "./preferences";

// What the notification mail (features/mail/notification-mail.server.ts) reads of the preferences.
export { DEFAULT_CHOICES, DIGEST_HOUR_JST, MAIL_DELAY_MINUTES, quietHolds, quietHoursEnd } from "./preferences";

type Row = {
  channels: unknown;
  quiet_start: number | null;
  quiet_end: number | null;
  quiet_mode: "hold" | "silent";
  quiet_exempt: string[] | null;
  message_previews: boolean | null;
  locale: string;
};

function fromRow(row: Row | undefined): NotificationPreferences & { locale: Locale } {
  const exempt = QUIET_CHANNELS.filter((c) => row?.quiet_exempt?.includes(c));
  return {
    channels: resolveChoices(row?.channels),
    quiet: row && row.quiet_start !== null && row.quiet_end !== null ? { start: Number(row.quiet_start), end: Number(row.quiet_end), mode: row.quiet_mode, exempt } : null,
    previews: row?.message_previews ?? true,
    locale: row?.locale === "en" ? "en" : "ja",
  };
}

/** The columns `fromRow` reads. */
const PREFERENCE_COLUMNS = sql.raw("channels, quiet_start, quiet_end, quiet_mode, quiet_exempt, message_previews, locale");

/**
 * A notification as getNotificationForDelivery reads it and its owner's preferences, in one
 * round trip (the dispatch of every `notify` row, so of every chat message, needs both, as do each
 * push and the notification mail).
 */
export async function getNotificationWithPreferences(db: Queryable, id: string): Promise<{ notification: NotificationView & { userId: string }; prefs: NotificationPreferences & { locale: Locale } } | null> {
  const [row] = await rowsOf<DeliveryRow & { prefs: Row | null }>(
    db,
    sql`select d.*, (select row_to_json(np) from (select ${PREFERENCE_COLUMNS} from notification_preferences where user_id = d.user_id) np) as prefs
        from (${notificationForDeliveryQuery(id)}) d`,
  );
  return row ? { notification: notificationForDelivery(row), prefs: fromRow(row.prefs ?? undefined) } : null;
}

/**
 * A notification as its dispatch reads it: who hears of it, of what kind, its count now, whether
 * it was read, and the owner's push devices (the subscriptions' ids).
 */
export type NotificationToDispatch = {
  id: string;
  userId: string;
  kind: NotificationKind;
  count: number;
  read: boolean;
  pushDevices: string[];
  /**
   * The bell's count, read with a chat message's notification (one is dispatched per message
   * told, to a player who is usually on the site); the other kinds reach many players at once,
   * most with no tab open, and leave it to the tabs' instance.
   */
  unread?: number;
};

/**
 * What the dispatch of a notification needs (no text: each channel reads that when its own row is
 * due) and its owner's preferences, in one round trip (the dispatch runs for every chat message
 * told): null when it is gone or no longer allowed.
 */
export async function getNotificationToDispatch(db: Queryable, id: string): Promise<{ notification: NotificationToDispatch; prefs: NotificationPreferences & { locale: Locale } } | null> {
  const [row] = await rowsOf<{ id: string; user_id: string; kind: NotificationKind; count: number; read: boolean; prefs: Row | null; push_devices: string[] | null; unread: number | string | null }>(
    db,
    sql`select n.id, n.user_id, n.kind, n.count, n.read_at is not null as read,
          case when n.kind = 'message' then ${unreadNotificationCount(sql`n.user_id`)} end as unread,
          (select row_to_json(np) from (select ${PREFERENCE_COLUMNS} from notification_preferences where user_id = n.user_id) np) as prefs,
          (select json_agg(s.id order by s.id) from push_subscriptions s where s.user_id = n.user_id) as push_devices
        from notifications n
        where n.id = ${id}::uuid and ${stillAllowed}`,
    { prepared: "notice_dispatch" },
  );
  if (!row) return null;
  return {
    notification: { id: row.id, userId: row.user_id, kind: row.kind, count: Number(row.count), read: row.read, pushDevices: row.push_devices ?? [], unread: row.unread === null ? undefined : Number(row.unread) },
    prefs: fromRow(row.prefs ?? undefined),
  };
}

export async function getNotificationPreferences(db: Queryable, userId: string): Promise<NotificationPreferences & { locale: Locale }> {
  const [row] = await rowsOf<Row>(db, sql`select ${PREFERENCE_COLUMNS} from notification_preferences where user_id = ${userId}`);
  return fromRow(row);
}

/**
 * Saves the whole table of choices and the quiet hours (validated by the caller's schema). An
 * account that is gone or deleted gets no row (deletion removed it; an unsubscribe link still
 * works after that): answers whether it was saved.
 */
export async function saveNotificationPreferences(
  db: Queryable,
  userId: string,
  prefs: NotificationPreferences & { locale: Locale },
): Promise<boolean> {
  const channels = JSON.stringify(prefs.channels);
  const exempt = (prefs.quiet?.exempt ?? []).join(",");
  const saved = await rowsOf(
    db,
    sql`insert into notification_preferences (user_id, channels, quiet_start, quiet_end, quiet_mode, quiet_exempt, message_previews, locale, updated_at)
        select ${userId}, ${channels}::jsonb, ${prefs.quiet?.start ?? null}::int, ${prefs.quiet?.end ?? null}::int, ${prefs.quiet?.mode ?? "hold"},
          string_to_array(${exempt}, ','), ${prefs.previews}, ${prefs.locale}, now()
        where ${present(userId)}
        on conflict (user_id) do update set channels = excluded.channels, quiet_start = excluded.quiet_start,
          quiet_end = excluded.quiet_end, quiet_mode = excluded.quiet_mode, quiet_exempt = excluded.quiet_exempt,
          message_previews = excluded.message_previews, locale = excluded.locale, updated_at = now()
        returning user_id`,
  );
  return saved.length > 0;
}

/** One-click unsubscribe: every kind's mail off, the rest kept (nothing for a deleted account). */
export async function turnOffAllMail(db: Queryable, userId: string): Promise<void> {
  const prefs = await getNotificationPreferences(db, userId);
  const channels = Object.fromEntries(Object.entries(prefs.channels).map(([k, c]) => [k, { ...c, mail: "off" }])) as Record<NotificationKind, KindChoices>;
  await saveNotificationPreferences(db, userId, { ...prefs, channels });
}
