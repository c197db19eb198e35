import { tmpdir } from "node:os";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { registerMailDelivery } from "#app/features/mail/mail.server.ts";
import { assertEveryDeliveryKindHandled, defineDeliveryKind, enqueueDelivery, registerDeliveryHandler, startOutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { registerNotificationChannels } from "#app/notification-pipeline.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { z } from "#app/lib/zod.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("delivery kinds", () => {
  it("every kind the site queues has its one handler once start-up has registered them; a second handler or definition of a kind is refused", () => {
    const env = { smtpUrl: undefined, mailFrom: "トレポケ <no-reply@torepoke.test>", dataDir: tmpdir(), siteUrl: "http://localhost:3000", vapid: { publicKey: "", privateKey: "", subject: "mailto:x@torepoke.test" }, pushServiceOrigins: [], authSecret: "k".repeat(40), notificationMailDelaySeconds: 600 };
    // Before the channels are registered, the kinds their modules define are unhandled.
    expect(() => assertEveryDeliveryKindHandled()).toThrow(/delivery kinds without a handler: .*mail/);
    const transport = registerMailDelivery(env);
    registerNotificationChannels({ env: env as unknown as Env, db: database.db });
    expect(() => assertEveryDeliveryKindHandled()).not.toThrow();
    expect(() => registerMailDelivery(env)).toThrow('delivery kind "mail" already has a handler');
    expect(() => defineDeliveryKind("push", z.object({}))).toThrow('delivery kind "push" is defined twice');
    // A kind defined (so queueable) but handled nowhere fails the start-up check.
    defineDeliveryKind("queued-but-unhandled", z.object({ x: z.number() }));
    expect(() => assertEveryDeliveryKindHandled()).toThrow("delivery kinds without a handler: queued-but-unhandled");
    transport.close();
  });

  it("a handler gets its payload parsed by the kind's schema; a row that breaks it fails at once without reaching the handler", async () => {
    const seen: number[] = [];
    const kind = defineDeliveryKind("test-typed", z.object({ count: z.number().int() }));
    registerDeliveryHandler(kind, async ({ count }) => {
      seen.push(count);
    });
    await enqueueDelivery(database.db, kind, { payload: { count: 3 } });
    await database.db.execute(sql`insert into delivery_outbox (kind, payload) values ('test-typed', '{"count": "three"}'::jsonb)`);
    const worker = startOutboxWorker({ db: database.db, pollMs: 20, retryBaseMs: 10 });
    try {
      await until(async () => (await rowsOf(database.db, sql`select 1 from delivery_outbox where kind = 'test-typed' and status = 'pending'`)).length === 0, "both rows");
    } finally {
      await worker.stop();
    }
    expect(seen).toEqual([3]);
    const [bad] = await rowsOf<{ status: string; attempts: number; last_error: string }>(database.db, sql`select status, attempts, last_error from delivery_outbox where kind = 'test-typed' and payload->>'count' = 'three'`);
    expect(bad).toMatchObject({ status: "failed", attempts: 1, last_error: "malformed test-typed payload" });
  });
});
