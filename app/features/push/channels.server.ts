import type { Db } from "#app/db/client.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import type { Logger } from "#app/lib/logger.server.ts";
import { dispatchMessageNoticesHere, NOTICE_DELIVERY } from "#app/features/notifications/notice-dispatch.server.ts";
import { registerDeliveryHandler } from "#app/features/outbox/outbox.server.ts";
import type { KindChoices, QuietHours } from "./preferences";
import { getNotificationToDispatch, type NotificationToDispatch } from "./preferences.server";
import { openTabs } from "#app/features/notifications/open-tabs.server.ts";

/** A notification as the channels plan it: who, what, its owner's choices for its kind (each channel reads the text when its own row is due). */
export type NotificationEvent = NotificationToDispatch & {
  /** The count the notification had when this event was queued (a room's message count). */
  n: number;
  choices: KindChoices;
  quiet: QuietHours;
  locale: Locale;
};

/**
 * One way of reaching a player outside the site (push now, mail; LINE could be another). A channel
 * never sends inside `plan`: it queues its own outbox rows (one per device or mail), so each is
 * retried on its own and delivered once across instances, and decides again when the row is due.
 */
export type NotificationChannel = {
  name: string;
  plan(db: Db, event: NotificationEvent, now: Date): Promise<void>;
};

const channels = new Map<string, NotificationChannel>();

export function registerNotificationChannel(channel: NotificationChannel): void {
  channels.set(channel.name, channel);
}

/**
 * Delivers `notify` rows (queued with each notification written) and, in this process right after
 * their commit, chat messages' notifications (notice-dispatch.server.ts): a notification already
 * read, or bumped again since (a later dispatch covers it), goes nowhere. stop() hands the chat
 * notices not yet told to the outbox.
 */
export function registerNotificationDispatch(db: Db, log?: Logger): { stop(): Promise<void> } {
  registerDeliveryHandler(NOTICE_DELIVERY, async ({ id, n }) => {
    const found = await getNotificationToDispatch(db, id);
    if (!found || found.notification.read || found.notification.count > n) return;
    const { notification, prefs } = found;
    // The site's own channel: open tabs count it now (a kind hidden from the inbox changes no count).
    if (prefs.channels[notification.kind].site === "on") await openTabs().noticeChanged(notification.userId, notification.unread);
    const event: NotificationEvent = { ...notification, n, choices: prefs.channels[notification.kind], quiet: prefs.quiet, locale: prefs.locale };
    const now = new Date();
    for (const channel of channels.values()) {
      try {
        await channel.plan(db, event, now);
      } catch (err) {
        log?.error("notification channel failed", { channel: channel.name, id, error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    }
  }, { retryUnexpected: true });
  return dispatchMessageNoticesHere(db, log);
}
