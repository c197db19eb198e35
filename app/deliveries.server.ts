import type { Db } from "./db/client.server";
import type { Env } from "./lib/env.server";
import type { Logger } from "./lib/logger.server";
import { startOutboxWorker, type OutboxWorker } from "./features/outbox/outbox.server";
import { registerNotificationChannels } from "./features/push/deliveries.server";
import { registerMailDelivery } from "./features/mail/mail.server";

/**
 * Start-up's one call for everything delivered later (outside the features, like
 * registrations.server.ts, so mail and push need not import each other): registers the mail transport and the
 * notification channels (push, mail) and starts the outbox worker; stop() lets the current round finish, then closes the SMTP pool.
 */
export function startDeliveries(options: { env: Env; db: Db; log: Logger }): OutboxWorker {
  const transport = registerMailDelivery(options.env, options.log);
  registerNotificationChannels(options);
  const worker = startOutboxWorker({ db: options.db, log: options.log, concurrency: 16 });
  options.log.info("mail delivery", {
    transport: transport.kind,
    ...(transport.kind === "file" ? { folder: `${options.env.dataDir}/mail` } : {}),
  });
  return {
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
