import { tmpdir } from "node:os";
import { afterAll, afterEach, beforeAll } from "vitest";
import { registerMailDelivery, type MailTransport } from "#app/features/mail/mail.server.ts";
import { startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { setPresence } from "#app/features/push/presence.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { registerNotificationChannels } from "#app/notification-pipeline.server.ts";
import { startTestSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

export type NotificationStand = {
  /** Set before the file's own beforeAll runs. */
  database: TestDatabase;
  smtp: TestSmtpServer;
  /** An outbox worker on the stand's database, polling fast; stopped after each test. */
  worker(): OutboxWorker;
  /** The settings the channels were registered with. */
  env: ChannelEnv;
};

type ChannelEnv = Pick<Env, "vapid" | "pushServiceOrigins" | "siteUrl" | "authSecret" | "notificationMailDelaySeconds">;

/**
 * What the notification tests run on: a test database, a local SMTP server the mail delivery
 * sends to, and the notification channels registered as a server registers them (push with no
 * push service, mail checks due at once). Registers its own hooks; call it at the top of a file.
 */
export function notificationStand(authSecret: string): NotificationStand {
  const workers: OutboxWorker[] = [];
  let transport: MailTransport | undefined;
  const stand = {
    worker() {
      const w = startOutboxWorker({ db: stand.database.db, pollMs: 20, retryBaseMs: 10 });
      workers.push(w);
      return w;
    },
  } as NotificationStand;
  const siteUrl = "http://localhost:3000";
  const channelEnv: ChannelEnv = { vapid: { publicKey: "", privateKey: "", subject: "mailto:x@torepoke.test" }, pushServiceOrigins: [], siteUrl, authSecret, notificationMailDelaySeconds: 0 };
  stand.env = channelEnv;
  beforeAll(async () => {
    stand.database = await createTestDatabase();
    stand.smtp = await startTestSmtpServer();
    transport = registerMailDelivery({ smtpUrl: stand.smtp.url, mailFrom: "トレポケ <no-reply@torepoke.test>", dataDir: tmpdir(), siteUrl });
    registerNotificationChannels({ env: channelEnv, db: stand.database.db });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    setPresence(null);
  });
  afterAll(async () => {
    transport?.close();
    await stand.smtp?.close();
    await stand.database?.close();
  });
  return stand;
}
