// `npm run bench:mail`: the mail outbox. Queues 10,000 mails (100 per transaction) and lets the
// outbox worker send them over SMTP to a real SMTP server on 127.0.0.1 (smtp-server, as in the
// tests): mails per second. Then, while a second batch is being sent, a request that queues one
// mail in its transaction against a request that queues nothing (the same transaction without
// the insert), served by a bare node:http server over the same database: what queuing costs a
// request. PGlite in-process, and PostgreSQL when it answers. Bounded: BENCH_MAILS (default
// 10,000), BENCH_SECONDS (default 5) per request case, 127.0.0.1 only.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { sql } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { enqueueMail, registerMailDelivery, type MailMessage } from "#app/features/mail/mail.server.ts";
import { startOutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { startTestSmtpServer } from "#tests/support/smtp-server.ts";
import { measure, postgresTarget, printTable } from "./support";

const MAILS = Number(process.env.BENCH_MAILS ?? 10_000);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 10;

const message = (i: number): MailMessage => ({
  to: `bench-${i}@torepoke.test`,
  locale: "ja",
  subject: `ベンチマーク ${i}`,
  text: `トレポケのベンチマークです。\nhttp://localhost:3000/reset-password?token=${i}\n`,
  html: `<p>トレポケのベンチマークです。</p><p><a href="http://localhost:3000/reset-password?token=${i}">再設定</a></p>`,
});

async function pending(db: Database["db"]): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from delivery_outbox where status = 'pending'`);
  return row.n;
}

async function queue(db: Database["db"], from: number, count: number) {
  for (let start = from; start < from + count; start += 100) {
    await db.transaction(async (tx) => {
      for (let i = start; i < Math.min(start + 100, from + count); i++) await enqueueMail(tx, message(i));
    });
  }
}

async function run(label: string, database: Database) {
  const smtp = await startTestSmtpServer({ parse: false });
  const transport = registerMailDelivery({ smtpUrl: smtp.url, mailFrom: "トレポケ <no-reply@torepoke.test>", dataDir: tmpdir(), siteUrl: "http://localhost:3000" });
  try {
    const db = database.db;
    let t = performance.now();
    await queue(db, 0, MAILS);
    const queueSeconds = (performance.now() - t) / 1000;

    t = performance.now();
    const worker = startOutboxWorker({ db, batchSize: 200, concurrency: 10 });
    while ((await pending(db)) > 0) await new Promise((r) => setTimeout(r, 100));
    const sendSeconds = (performance.now() - t) / 1000;
    const received = smtp.received.length;
    console.log(
      `\n[${label}] queued ${MAILS} mails in ${queueSeconds.toFixed(1)} s (${(MAILS / queueSeconds).toFixed(0)}/s); ` +
        `sent ${received} over SMTP in ${sendSeconds.toFixed(1)} s: ${(received / sendSeconds).toFixed(0)} mails/s (worker: 200 per claim, 10 at once, pool of 5 SMTP connections)`,
    );

    // Requests while the worker sends a second batch in the background.
    const background = queue(db, MAILS, MAILS);
    let n = 0;
    const http = createServer((req, res) => {
      const queueOne = req.url === "/queue-one";
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        if (queueOne) await enqueueMail(tx, message(1_000_000 + n++));
      })
        .then(() => res.end("ok"))
        .catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    await measure("warm-up", `${url}/nothing`, { duration: 1, connections: 2 });
    const baseline = await measure(`request queues nothing (${label})`, `${url}/nothing`, { duration, connections });
    const one = await measure(`request queues one mail (${label})`, `${url}/queue-one`, { duration, connections });
    printTable(`[server mode: node:http in the bench process, ${process.env.NODE_ENV ?? "no NODE_ENV"}; ${label}] a request's transaction with and without queuing one mail — ${connections} connections, ${duration} s per case, worker sending meanwhile`, [baseline, one], baseline);
    await new Promise<void>((resolve) => http.close(() => resolve()));
    // The second batch finishes queuing before the database closes.
    await background;
    await worker.stop();
  } finally {
    transport.close();
    await smtp.close();
  }
}

const pglite = await openDatabase({ kind: "pglite" });
await migrateDatabase(pglite);
await run("pglite", pglite);
await pglite.close();

const postgres = await postgresTarget();
if (postgres) {
  const database = await postgres.open();
  await migrateDatabase(database);
  try {
    await run("postgres", database);
  } finally {
    await database.close();
    await postgres.cleanup?.();
  }
}
process.exit(0);
