import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { enqueueMail, MAIL_DELIVERY, registerMailDelivery, type MailMessage, type MailTransport } from "#app/features/mail/mail.server.ts";
import { renderMail } from "#app/features/mail/templates.server.ts";
import { outboxInstanceId } from "#app/start-deliveries.server.ts";
import { z } from "#app/lib/zod.ts";
import { claimDeliveries, defineDeliveryKind, enqueueDelivery, forgetDeliveryHandler, PermanentDeliveryError, registerDeliveryHandler, startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { startTestSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

const onPostgres = process.env.TEST_DB === "postgres";
let database: TestDatabase;
let smtp: TestSmtpServer;
let transport: MailTransport;
const workers: OutboxWorker[] = [];
const extraDatabases: Database[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtpServer();
  transport = registerMailDelivery({ smtpUrl: smtp.url, mailFrom: "トレポケ <no-reply@torepoke.test>", dataDir: tmpdir(), siteUrl: "http://localhost:3000" });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await Promise.all(extraDatabases.map((d) => d.close()));
  transport?.close();
  await smtp?.close();
  await database?.close();
});

let serial = 0;
const address = (label: string) => `${label}-${++serial}-${Date.now()}@torepoke.test`;
const plain = (to: string, subject = "テスト"): MailMessage => ({ to, locale: "ja", subject, text: `本文 ${to}`, html: `<p>本文 ${to}</p>` });

function worker(db = database.db, options: Parameters<typeof startOutboxWorker>[0] extends infer O ? Partial<O> : never = {}) {
  const w = startOutboxWorker({ db, pollMs: 50, retryBaseMs: 10, ...options });
  workers.push(w);
  return w;
}

type Row = { status: string; attempts: number; last_error: string | null; locked_by: string | null };
async function rowFor(to: string): Promise<Row | undefined> {
  const [row] = await rowsOf<Row>(database.db, sql`select status, attempts, last_error, locked_by from delivery_outbox where payload->>'to' = ${to}`);
  return row;
}

describe("mail through the outbox", () => {
  it("a Japanese mail queued in a transaction arrives over SMTP with its subject, text and HTML decoded", async () => {
    const to = address("ja");
    const message = renderMail(
      { subject: "パスワードの再設定", name: "ピカチュウ<b>", paragraphs: ["パスワード再設定のご依頼を受け付けました。"], action: { label: "再設定する", url: "http://localhost:3000/reset-password?token=abc" } },
      { locale: "ja", siteUrl: "http://localhost:3000", to },
    );
    await database.db.transaction(async (tx) => {
      await enqueueMail(tx, message);
    });
    worker();
    await until(() => smtp.to(to).length === 1, "the mail");
    const mail = smtp.to(to)[0];
    expect(mail.subject).toBe("【トレポケ】パスワードの再設定");
    expect(mail.from?.value[0]).toMatchObject({ address: "no-reply@torepoke.test", name: "トレポケ" });
    expect(mail.text).toContain("ピカチュウ<b> さん");
    expect(mail.text).toContain("http://localhost:3000/reset-password?token=abc");
    expect(mail.html).toContain("ピカチュウ&lt;b&gt;");
    expect(mail.html).not.toContain("<b>");
    expect(mail.headers.get("content-language")).toBe("ja");
    // The raw header is MIME-encoded UTF-8, which Japanese mail clients decode.
    expect(mail.headerLines.find((h) => h.key === "subject")?.line).toMatch(/=\?UTF-8\?[BQ]\?/i);
    await until(async () => (await rowFor(to))?.status === "sent", "the row marked sent");
  });

  it("a rolled-back transaction queues nothing, and a repeated dedupe key queues once", async () => {
    const rolledBack = address("rollback");
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueMail(tx, plain(rolledBack));
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    const once = address("dedupe");
    await enqueueMail(database.db, plain(once), { dedupeKey: `k-${once}` });
    await enqueueMail(database.db, plain(once), { dedupeKey: `k-${once}` });
    worker();
    await until(async () => (await rowFor(once))?.status === "sent", "the deduplicated mail");
    expect(await rowFor(rolledBack)).toBeUndefined();
    const [{ n }] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from delivery_outbox where payload->>'to' = ${once}`);
    expect(n).toBe(1);
    expect(smtp.to(once)).toHaveLength(1);
  });

  it("a temporary SMTP refusal (451) is retried until it goes through; a permanent one (550) is recorded with its reason", async () => {
    const busy = address("busy");
    const gone = address("gone");
    smtp.refuse(busy, 451, 2);
    smtp.refuse(gone, 550);
    await enqueueMail(database.db, plain(busy));
    await enqueueMail(database.db, plain(gone));
    worker();
    await until(async () => (await rowFor(busy))?.status === "sent", "the retried mail");
    await until(async () => (await rowFor(gone))?.status === "failed", "the refused mail recorded");
    expect(await rowFor(busy)).toMatchObject({ attempts: 3 });
    expect(smtp.to(busy)).toHaveLength(1);
    const failed = await rowFor(gone);
    expect(failed?.attempts).toBe(1);
    expect(failed?.last_error).toMatch(/550/);
    expect(smtp.to(gone)).toHaveLength(0);
  });

  it("a temporary failure that never clears gives up after the bounded number of attempts, with the reason", async () => {
    const down = address("down");
    smtp.refuse(down, 421);
    await enqueueMail(database.db, plain(down));
    worker(database.db, { maxAttempts: 3 });
    await until(async () => (await rowFor(down))?.status === "failed", "the mail given up");
    const row = await rowFor(down);
    expect(row?.attempts).toBe(3);
    expect(row?.last_error).toMatch(/421/);
  });

  it("a lost connection is temporary: mail queued while the SMTP server is unreachable goes out once it answers", async () => {
    const later = address("later");
    // Port 1 on loopback refuses connections: a transport there fails with ECONNREFUSED.
    forgetDeliveryHandler(MAIL_DELIVERY);
    const unreachable = registerMailDelivery({ smtpUrl: "smtp://127.0.0.1:1", mailFrom: "no-reply@torepoke.test", dataDir: tmpdir(), siteUrl: "http://localhost:3000" });
    await enqueueMail(database.db, plain(later));
    const w = worker(database.db, { retryBaseMs: 60_000 });
    await until(async () => (await rowFor(later))?.last_error != null, "the first failed attempt");
    await w.stop();
    unreachable.close();
    expect(await rowFor(later)).toMatchObject({ status: "pending", attempts: 1 });
    // The real transport again, and the retry made due now.
    forgetDeliveryHandler(MAIL_DELIVERY);
    registerMailDelivery({ smtpUrl: smtp.url, mailFrom: "トレポケ <no-reply@torepoke.test>", dataDir: tmpdir(), siteUrl: "http://localhost:3000" });
    await database.db.execute(sql`update delivery_outbox set run_at = now() where payload->>'to' = ${later}`);
    worker();
    await until(() => smtp.to(later).length === 1, "the mail after the server came back");
  });

  it("the outbox survives a restart: mail queued before the process stopped is sent after it starts again", async () => {
    const queued = Array.from({ length: 5 }, () => address("restart"));
    let reopen: () => Promise<Database>;
    let dir: string | undefined;
    if (onPostgres) {
      const url = database.url as string;
      reopen = async () => openDatabase({ kind: "postgres", url, poolSize: 2 });
    } else {
      dir = mkdtempSync(path.join(tmpdir(), "torepoke-outbox-"));
      const dataDir = path.join(dir, "db");
      reopen = async () => {
        const d = await openDatabase({ kind: "pglite", dataDir });
        await migrateDatabase(d);
        return d;
      };
    }
    const before = await reopen();
    for (const to of queued) await enqueueMail(before.db, plain(to));
    await before.close();

    const after = await reopen();
    try {
      const w = startOutboxWorker({ db: after.db, pollMs: 50 });
      workers.push(w);
      await until(() => queued.every((to) => smtp.to(to).length === 1), "the mails queued before the restart");
      await w.stop();
    } finally {
      await after.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the rows of a worker that died holding a lease are taken over when the lease runs out and sent once", async () => {
    const orphans = Array.from({ length: 20 }, () => address("orphan"));
    for (const to of orphans) await enqueueMail(database.db, plain(to));
    // A worker claims them and dies before sending (nothing marks them done, nothing releases them).
    const claimed = await claimDeliveries(database.db, { workerId: "dead-worker", kinds: ["mail"], leaseMs: 400, limit: 1000 });
    expect(claimed.length).toBeGreaterThanOrEqual(orphans.length);
    expect((await rowFor(orphans[0]))?.locked_by).toBe("dead-worker");
    worker(database.db, { workerId: "survivor" });
    await until(async () => {
      const rows = await Promise.all(orphans.map(rowFor));
      return rows.every((r) => r?.status === "sent");
    }, "the orphaned mails");
    for (const to of orphans) {
      expect(smtp.to(to)).toHaveLength(1);
      expect(await rowFor(to)).toMatchObject({ locked_by: "survivor", attempts: 2 });
    }
  });

  it("an instance killed mid-round takes its leased rows back as soon as it starts again under the same identity; a row another instance leases waits for that lease", async () => {
    const env = { port: 3000, host: "0.0.0.0", dataDir: path.join(tmpdir(), "torepoke-data") };
    // The identity survives the restart (same host, port and data folder) and is no other instance's.
    const me = outboxInstanceId(env, "app-1");
    expect(outboxInstanceId(env, "app-1")).toBe(me);
    for (const other of [outboxInstanceId(env, "app-2"), outboxInstanceId({ ...env, port: 3001 }, "app-1"), outboxInstanceId({ ...env, dataDir: `${env.dataDir}-2` }, "app-1"), outboxInstanceId({ ...env, host: "10.0.0.2" }, "app-1")]) {
      expect(other).not.toBe(me);
    }
    // PORT=0 is a new port each start: no identity to come back to.
    expect(outboxInstanceId({ ...env, port: 0 }, "app-1")).not.toBe(outboxInstanceId({ ...env, port: 0 }, "app-1"));
    const another = outboxInstanceId(env, "app-2");

    const mine = address("mine");
    const theirs = address("theirs");
    // This instance's last life claimed `mine` with the usual 2-minute lease and was killed.
    await enqueueMail(database.db, plain(mine));
    expect((await claimDeliveries(database.db, { workerId: me, kinds: ["mail"], leaseMs: 120_000, limit: 1000 })).length).toBeGreaterThanOrEqual(1);
    // Another instance, alive, holds `theirs` for a few seconds.
    await enqueueMail(database.db, plain(theirs));
    expect((await claimDeliveries(database.db, { workerId: another, kinds: ["mail"], leaseMs: 3000, limit: 1000 })).length).toBeGreaterThanOrEqual(1);
    const leaseOf = async (to: string) =>
      (await rowsOf<{ locked_until: Date | string }>(database.db, sql`select locked_until from delivery_outbox where payload->>'to' = ${to}`))[0].locked_until;
    const mineLeasedUntil = new Date(await leaseOf(mine));
    const theirsLeasedUntil = new Date(await leaseOf(theirs));

    worker(database.db, { workerId: me });
    await until(() => smtp.to(mine).length === 1, "the mail left in flight, at start", 20_000);
    await until(async () => (await rowFor(theirs))?.status === "sent", "the other instance's mail, after its lease");
    const finished = async (to: string) =>
      new Date((await rowsOf<{ finished_at: Date | string }>(database.db, sql`select finished_at from delivery_outbox where payload->>'to' = ${to}`))[0].finished_at);
    // Sent long before its own 2-minute lease ran out; the other's not before its lease ended.
    expect((await finished(mine)).getTime()).toBeLessThan(mineLeasedUntil.getTime() - 60_000);
    expect((await finished(theirs)).getTime()).toBeGreaterThanOrEqual(theirsLeasedUntil.getTime());
    expect(await rowFor(mine)).toMatchObject({ status: "sent", attempts: 2, locked_by: me });
    expect(smtp.to(mine)).toHaveLength(1);
    expect(smtp.to(theirs)).toHaveLength(1);
  });

  it("every try of one outbox row carries the same Message-ID (a mail sent again after a crash is folded by the client); another row has its own", async () => {
    const to = address("message-id");
    const other = address("message-id-other");
    await enqueueMail(database.db, plain(to));
    await enqueueMail(database.db, plain(other));
    worker();
    await until(async () => (await rowFor(to))?.status === "sent" && (await rowFor(other))?.status === "sent", "both mails sent");
    // The worker died after the SMTP server took the mail and before the row was marked: the row
    // is due again and goes out a second time.
    await database.db.execute(sql`update delivery_outbox set status = 'pending', finished_at = null, locked_until = null where payload->>'to' = ${to}`);
    await until(() => smtp.to(to).length === 2, "the second try");
    const [first, second] = smtp.to(to);
    expect(second.messageId).toBe(first.messageId);
    // Named for the site's host (SITE_URL), not the SMTP relay's.
    expect(first.messageId).toMatch(/^<[^<>@\s]+@localhost>$/);
    expect(smtp.to(other)[0].messageId).not.toBe(first.messageId);
  });

  it.runIf(onPostgres)("two instances over 1,000 queued mails send each exactly once; a third killed holding a lease has its mails taken over", async () => {
    const batch = `bulk-${Date.now()}`;
    const recipients = Array.from({ length: 1000 }, (_, i) => `${batch}-${i}@torepoke.test`);
    await database.db.transaction(async (tx) => {
      for (const to of recipients) await enqueueMail(tx, plain(to, batch));
    });
    // A third instance claims 50 of them on its own connection pool and is killed before sending:
    // its pool goes away with the lease still on the rows.
    const killed = await openDatabase({ kind: "postgres", url: database.url as string, poolSize: 1 });
    const orphaned = await claimDeliveries(killed.db, { workerId: "killed-instance", kinds: ["mail"], leaseMs: 1500, limit: 50 });
    await killed.close();
    const orphanedInBatch = orphaned.filter((row) => (row.payload as MailMessage).subject === batch).map((row) => (row.payload as MailMessage).to);
    expect(orphanedInBatch.length).toBeGreaterThan(0);
    // Each worker has its own connection pool, as two server processes would.
    const second = await openDatabase({ kind: "postgres", url: database.url as string, poolSize: 3 });
    extraDatabases.push(second);
    worker(database.db, { workerId: "instance-a", batchSize: 20 });
    worker(second.db, { workerId: "instance-b", batchSize: 20 });
    const sent = async () =>
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from delivery_outbox where payload->>'subject' = ${batch} and status = 'sent'`))[0].n;
    await until(async () => (await sent()) === 1000, "1,000 rows sent", 120_000);
    const counts = new Map<string, number>();
    for (const m of smtp.received) if (m.subject === batch) counts.set(m.envelopeTo[0], (counts.get(m.envelopeTo[0]) ?? 0) + 1);
    expect(counts.size).toBe(1000);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const byWorker = await rowsOf<{ locked_by: string; n: number }>(
      database.db,
      sql`select locked_by, count(*)::int as n from delivery_outbox where payload->>'subject' = ${batch} and status = 'sent' group by locked_by`,
    );
    expect(byWorker.reduce((sum, r) => sum + r.n, 0)).toBe(1000);
    // Both instances took part: the rows were shared out, not sent by one while the other idled.
    expect(byWorker.map((r) => r.locked_by).sort()).toEqual(["instance-a", "instance-b"]);
    // The killed instance's rows went out once, from a live instance, on their second claim.
    for (const to of orphanedInBatch) expect(await rowFor(to)).toMatchObject({ status: "sent", attempts: 2, locked_by: expect.stringMatching(/^instance-[ab]$/) });
  }, 180_000);

  it("a handler that retries unexpected errors is tried again (bounded) after a plain error; a PermanentDeliveryError fails at once", async () => {
    const runs = new Map<string, number>();
    const flaky = defineDeliveryKind("test-flaky", z.object({ key: z.string() }));
    const plainKind = defineDeliveryKind("test-plain", z.object({ key: z.string() }));
    registerDeliveryHandler(
      flaky,
      async ({ key }) => {
        runs.set(key, (runs.get(key) ?? 0) + 1);
        if (key === "malformed") throw new PermanentDeliveryError("malformed test payload");
        if (key === "never" || runs.get(key)! < 3) throw new Error("connection terminated unexpectedly");
      },
      { retryUnexpected: true },
    );
    registerDeliveryHandler(plainKind, async () => {
      throw new Error("connection terminated unexpectedly");
    });
    for (const key of ["blip", "malformed", "never"]) await enqueueDelivery(database.db, flaky, { payload: { key } });
    await enqueueDelivery(database.db, plainKind, { payload: { key: "plain" } });
    worker(database.db, { maxAttempts: 4 });
    const row = async (key: string) => {
      const [r] = await rowsOf<Row>(database.db, sql`select status, attempts, last_error, locked_by from delivery_outbox where payload->>'key' = ${key}`);
      return r;
    };
    await until(async () => (await Promise.all(["blip", "malformed", "never", "plain"].map(row))).every((r) => r.status !== "pending"), "every test row finished");
    expect(await row("blip")).toMatchObject({ status: "sent", attempts: 3 });
    expect(await row("malformed")).toMatchObject({ status: "failed", attempts: 1, last_error: "malformed test payload" });
    expect(await row("never")).toMatchObject({ status: "failed", attempts: 4, last_error: "connection terminated unexpectedly" });
    // Without the option only a TemporaryDeliveryError is retried, as before.
    expect(await row("plain")).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a worker delivers only the kinds it has handlers for; others wait for theirs", async () => {
    await enqueueDelivery(database.db, defineDeliveryKind("not-registered-here", z.object({ x: z.number() })), { payload: { x: 1 }, dedupeKey: `unhandled-${Date.now()}` });
    const to = address("after-unhandled");
    await enqueueMail(database.db, plain(to));
    worker();
    await until(() => smtp.to(to).length === 1, "the mail");
    const [row] = await rowsOf<Row>(database.db, sql`select status, attempts from delivery_outbox where kind = 'not-registered-here'`);
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("a row delivered early in a round is marked sent at once, not when the round's slowest row ends: another worker never sends it again after its lease", async () => {
    const runs = new Map<string, number>();
    const lanes = defineDeliveryKind("test-lanes", z.object({ key: z.string(), ms: z.number() }));
    registerDeliveryHandler(lanes, async ({ key, ms }) => {
      runs.set(key, (runs.get(key) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, ms));
    });
    const stamp = Date.now();
    const fast = `fast-${stamp}`;
    const slow = `slow-${stamp}`;
    await enqueueDelivery(database.db, lanes, { payload: { key: fast, ms: 10 } });
    await enqueueDelivery(database.db, lanes, { payload: { key: slow, ms: 1500 } });
    // A holds both for 400 ms; the slow one outlives that lease, the fast one must not.
    worker(database.db, { workerId: "short-lease", leaseMs: 400, concurrency: 2 });
    await until(() => runs.get(slow) === 1, "the round with both rows");
    worker(database.db, { workerId: "taker" });
    const status = async (key: string) => (await rowsOf<{ status: string }>(database.db, sql`select status from delivery_outbox where payload->>'key' = ${key}`))[0]?.status;
    await until(async () => (await status(fast)) === "sent" && (await status(slow)) === "sent", "both rows sent", 20_000);
    // Past every lease: nothing is claimed again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(runs.get(fast)).toBe(1);
  });
});
