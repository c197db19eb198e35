import type { Db } from "#app/db/client.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { registerNotificationChannel, registerNotificationDispatch } from "#app/features/push/channels.server.ts";
import { createMailChannel, registerNotificationMailDelivery, startDigests, type MailChannelOptions } from "#app/features/mail/notification-mail.server.ts";
import { pushChannel, registerPushDelivery } from "#app/features/push/push-channel.server.ts";

type ChannelEnv = Pick<Env, "vapid" | "pushServiceOrigins" | "siteUrl" | "authSecret" | "notificationMailDelaySeconds">;

function mailOptions(env: ChannelEnv): MailChannelOptions {
  return { siteUrl: env.siteUrl, authSecret: env.authSecret, delayMs: env.notificationMailDelaySeconds * 1000 };
}

/**
 * Makes this process deliver notifications outside the site: the dispatch of each written
 * notification, then each channel's own rows (push to a device, a mail when still unread).
 * stop(): the chat notices this process has yet to tell go to the outbox.
 */
export function registerNotificationChannels(options: { env: ChannelEnv; db: Db; log?: Logger }): { stop(): Promise<void> } {
  const dispatch = registerNotificationDispatch(options.db, options.log);
  registerNotificationChannel(pushChannel);
  registerPushDelivery(options.db, options.env.vapid, options.env.pushServiceOrigins, options.log);
  const mail = mailOptions(options.env);
  registerNotificationChannel(createMailChannel(mail));
  registerNotificationMailDelivery(options.db, mail, options.log);
  return dispatch;
}

/** The daily digest's timer (every instance; each digest is claimed once). */
export function startNotificationDigests(options: { env: ChannelEnv; db: Db; log: Logger }): { stop(): void } {
  return startDigests(options.db, mailOptions(options.env), options.log);
}
