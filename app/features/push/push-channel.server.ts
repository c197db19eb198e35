import type { Db } from "#app/db/client.server.ts";
import type { VapidKeys } from "#app/lib/data-dir-secrets.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import type { Logger } from "#app/lib/logger.server.ts";
import { countUnreadNotifications } from "#app/features/notifications/notifications.server.ts";
import { notificationPreview, notificationText } from "#app/features/notifications/components/notification-text.ts";
import type { NotificationKind } from "#app/features/notifications/types.ts";
import { defineDeliveryKind, enqueueDelivery, PermanentDeliveryError, registerDeliveryHandler, TemporaryDeliveryError } from "#app/features/outbox/outbox.server.ts";
import { z } from "#app/lib/zod.ts";
import type { NotificationChannel } from "./channels.server";
import { pushMessages } from "./messages";
import { quietHolds, quietHoursEnd } from "./preferences";
import { getNotificationWithPreferences } from "./preferences.server";
import { presence } from "./presence.server";
import { dropSubscription, getSubscription } from "./subscriptions.server";
import { notificationTopic, PushGoneError, roomTopic, sendPush, TEST_PUSH_TOPIC, type PushMessage, type PushOptions } from "./web-push.server";
import { rowsOf } from "#app/db/sql.server.ts";
import { sql } from "drizzle-orm";

/** The outbox kind of one push to one device: a notification's (at its count `n`), or the test push. */
export const PUSH_DELIVERY = defineDeliveryKind(
  "push",
  z.union([
    z.object({ sub: z.string(), test: z.literal(true) }),
    z.object({ sub: z.string(), id: z.string(), n: z.number().int(), silent: z.boolean().optional() }),
  ]),
);
type PushJob = z.output<typeof PUSH_DELIVERY.payload>;

/**
 * How long a push service keeps trying an offline device, how eagerly it wakes it, and which
 * earlier push it replaces (web-push.server.ts: a room's, else the notification's own).
 */
export function pushOptionsFor(notification: { id: string; kind: NotificationKind; roomId: string | null }, silent: boolean): PushOptions {
  const { kind, roomId } = notification;
  const ttlSeconds = kind === "expiring" ? 12 * 3600 : kind === "match" || kind === "want" ? 3 * 86400 : 86400;
  const urgency = silent ? "low" : kind === "message" || kind === "response" || kind === "step" || kind === "friend" ? "high" : "normal";
  return { ttlSeconds, urgency, topic: roomId ? roomTopic(roomId) : notificationTopic(notification.id) };
}

/**
 * Web Push (docs/architecture.md "Notifications (inbox)"): a notification the player chose to be pushed goes to each of their
 * subscribed devices, one outbox row per device. During quiet hours it is held until they end,
 * or sent silently. Due, it is dropped when the notification was read or bumped again meanwhile
 * (the later push replaces it: same `topic` per room), or when the player has that room open.
 */
export const pushChannel: NotificationChannel = {
  name: "push",
  async plan(db, event, now) {
    if (event.choices.push === "off") return;
    const quiet = quietHolds(event.quiet, "push", now) ? event.quiet : null;
    const runAt = quiet?.mode === "hold" ? quietHoursEnd(quiet, now) : undefined;
    const silent = quiet?.mode === "silent";
    for (const sub of event.pushDevices) {
      const job: PushJob = { sub, id: event.id, n: event.n, ...(silent ? { silent } : {}) };
      await enqueueDelivery(db, PUSH_DELIVERY, { payload: job, runAt, dedupeKey: `push:${sub}:${event.id}:${event.n}` });
    }
  },
};

/** The test button on the profile: one push to each of the player's devices, now. */
export async function queueTestPush(db: Db, userId: string): Promise<number> {
  const subs = await rowsOf<{ id: string }>(db, sql`select id from push_subscriptions where user_id = ${userId}`);
  for (const sub of subs) await enqueueDelivery(db, PUSH_DELIVERY, { payload: { sub: sub.id, test: true } });
  return subs.length;
}

function testMessage(locale: Locale): PushMessage {
  const t = (key: "testTitle" | "testBody") => translate(pushMessages, locale, key);
  return { title: t("testTitle"), body: t("testBody"), url: "/profile#notification-settings", tag: "test", lang: locale };
}

/** Sends due `push` rows: one device, one message. */
export function registerPushDelivery(db: Db, vapid: VapidKeys, pushServiceOrigins: readonly string[], log?: Logger): void {
  registerDeliveryHandler(PUSH_DELIVERY, async (job) => {
    const sub = await getSubscription(db, job.sub);
    if (!sub) return;
    let message: PushMessage;
    let options: PushOptions;
    if ("test" in job) {
      message = testMessage(sub.locale);
      options = { ttlSeconds: 300, urgency: "high", topic: TEST_PUSH_TOPIC };
    } else {
      const found = await getNotificationWithPreferences(db, job.id);
      if (!found) return;
      const { notification: n, prefs } = found;
      if (n.read || n.count > job.n || n.userId !== sub.userId) return;
      // Held for quiet hours (or queued a while ago): the player may have turned push off since.
      if (prefs.channels[n.kind].push === "off") return;
      if (n.roomId && (await presence().isViewingRoom(n.userId, n.roomId))) return;
      const silent = job.silent === true;
      message = {
        title: translate(pushMessages, sub.locale, "title"),
        body: [notificationText(n, sub.locale), notificationPreview(n, sub.locale)].filter(Boolean).join("\n"),
        url: n.href,
        tag: n.roomId ? `room-${n.roomId}` : `n-${n.id}`,
        badge: await countUnreadNotifications(db, n.userId),
        lang: sub.locale,
        ...(silent ? { silent } : {}),
      };
      options = pushOptionsFor(n, silent);
    }
    try {
      await sendPush(vapid, sub, message, options, pushServiceOrigins);
    } catch (err) {
      if (err instanceof PushGoneError) {
        await dropSubscription(db, sub.id);
        log?.info("push subscription expired and removed", { subscription: sub.id, reason: err.message });
        return;
      }
      // Any other refusal of the push service is final (sendPush says which ones are temporary).
      if (err instanceof TemporaryDeliveryError) throw err;
      throw new PermanentDeliveryError(err instanceof Error ? err.message : String(err));
    }
    await db.execute(sql`update push_subscriptions set last_success_at = now() where id = ${sub.id}::uuid`);
  }, { retryUnexpected: true });
}
