import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "#app/db/client.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { assertEveryDeliveryKindHandled, startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { registerNotificationChannels } from "./notification-pipeline.server";
import { registerMailDelivery } from "#app/features/mail/mail.server.ts";
import { sweepUndispatchedNotices } from "#app/features/notifications/notice-dispatch.server.ts";

/**
 * This instance's name in the outbox's leases (locked_by). It is the same when the process starts
 * again on the same machine, so a killed instance takes back the rows it left in flight at once
 * instead of waiting out their 2-minute lease; and it differs from every other live instance, so
 * it never takes theirs. Derived from host name, listening address, port and data folder rather than stored in the
 * data folder: instances may share one folder (the VAPID keys, the auth secret), and a stored id
 * would be shared with it. Two live processes cannot listen on one address and port of one host, and machines,
 * containers and pods each have their own host name (a container keeps it across restarts; a pod
 * recreated under a new name waits for the lease, as before); replicas given one fixed host name
 * must listen on different ports. PORT=0 (a port picked at random, as in the tests) has nothing to
 * come back to: a random name then.
 */
export function outboxInstanceId(env: Pick<Env, "port" | "dataDir" | "host">, host: string = hostname()): string {
  const folder = createHash("sha256").update(env.dataDir).digest("base64url").slice(0, 8);
  const port = env.port === 0 ? `0-${randomBytes(6).toString("hex")}` : String(env.port);
  // The address it listens on too: two processes may share a port on different addresses of one host.
  return `${host.slice(0, 100)}:${env.host}:${port}:${folder}`;
}

/**
 * Start-up's one call for everything delivered later (outside the features, like
 * registrations.server.ts, so mail and push need not import each other): registers the mail transport and the
 * notification channels (push, mail) and starts the outbox worker; stop() lets the rows being sent finish, hands every
 * other row this instance holds back to the outbox (another instance takes it at once), then closes the SMTP pool.
 */
export function startDeliveries(options: { env: Env; db: Db; log: Logger }): OutboxWorker {
  const transport = registerMailDelivery(options.env, options.log);
  const notices = registerNotificationChannels(options);
  // Chat notices an instance bumped and never told (it died in between) go to the outbox.
  const sweep = sweepUndispatchedNotices(options.db, options.log);
  // A kind some module may queue that nothing here delivers would wait in the outbox for ever.
  assertEveryDeliveryKindHandled();
  const worker = startOutboxWorker({ db: options.db, log: options.log, concurrency: 16, workerId: outboxInstanceId(options.env) });
  options.log.info("mail delivery", {
    transport: transport.kind,
    ...(transport.kind === "file" ? { folder: `${options.env.dataDir}/mail` } : {}),
  });
  return {
    async stop() {
      sweep.stop();
      // First, so the notices still waiting here are in the outbox before the worker hands its rows back.
      await notices.stop();
      await worker.stop();
      transport.close();
    },
  };
}
