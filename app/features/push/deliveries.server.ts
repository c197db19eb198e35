import type { Db } from "../../db/client.server";
import type { Env } from "../../lib/env.server";
import type { Logger } from "../../lib/logger.server";
import { registerNotificationChannel, registerNotificationDispatch } from "./channels.server";
import { pushChannel, registerPushDelivery } from "./push-channel.server";

/** Makes this process deliver notifications outside the site: the dispatch and each channel's own rows. */
export function registerNotificationChannels(options: { env: Env; db: Db; log?: Logger }): void {
  registerNotificationDispatch(options.db, options.log);
  registerNotificationChannel(pushChannel);
  registerPushDelivery(options.db, options.env.vapid, options.log);
}
