// `npm run bench:chat-writes`: the database work of one trade-chat message, counted rather than
// timed. BENCH_ROOMS rooms (100) each exchange BENCH_MESSAGES messages (10, the two sides in
// turn, nobody reading, as in bench:chat) through the chat service as the socket handler calls it
// (the send, then the recipient's unread total), while this process delivers what they cause as
// an instance does (start-deliveries: the outbox worker and the notification channels, on the
// background pool). The notification mail's check is due BENCH_MAIL_DELAY_SECONDS (2) after a
// message instead of 10 minutes, so its work is counted too; nobody has a verified address or a
// push device, as in bench:chat. Prints, per message: the statements each pool sent (counted in
// node-postgres), and the rows each table had inserted, updated (HOT) and deleted
// (pg_stat_user_tables of a fresh database, read after every connection closed). Run it on two
// versions of the code to compare them: the counts do not depend on the machine's speed.
// PostgreSQL only (BENCH_DATABASE_URL / TEST_DATABASE_URL); 127.0.0.1; stops by itself.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, migrateDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { chatRooms, profiles, tradeOffers, users } from "#app/db/schema/index.ts";
import { countUnread, sendMessage } from "#app/features/chat/chat.server.ts";
import { startDeliveries } from "#app/start-deliveries.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { sql } from "drizzle-orm";
import { createBenchDatabase } from "./support";

const ROOMS = Number(process.env.BENCH_ROOMS ?? 100);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10);
const MAIL_DELAY_SECONDS = Number(process.env.BENCH_MAIL_DELAY_SECONDS ?? 2);
const SETTLE_LIMIT_MS = 60_000;

// Statements by pool: openDatabase makes the requests' pool first, then the background one.
const statements = { requests: 0, background: 0 };
let counting = false;
let poolsMade = 0;
type TaggedClient = pg.Client & { poolTag?: keyof typeof statements };
const BasePool = pg.Pool;
class TaggedPool extends BasePool {
  constructor(config?: pg.PoolConfig) {
    super(config);
    const tag: keyof typeof statements = poolsMade++ % 2 === 0 ? "requests" : "background";
    this.on("connect", (client) => {
      (client as TaggedClient).poolTag = tag;
    });
  }
}
(pg as unknown as { Pool: typeof pg.Pool }).Pool = TaggedPool;
const baseQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: TaggedClient, ...args: unknown[]) {
  if (counting && this.poolTag) statements[this.poolTag]++;
  return (baseQuery as (...a: unknown[]) => unknown).apply(this, args);
} as unknown as typeof pg.Client.prototype.query;

type TableCounts = Record<string, { ins: number; upd: number; hot: number; del: number }>;

/** Rows written per table so far (every connection that wrote them has closed, so they are flushed). */
async function tableCounts(url: string): Promise<TableCounts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A closed connection reports its counts as it exits: look until two readings agree.
    let last = "";
    for (let i = 0; i < 20; i++) {
      const { rows } = await client.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
        "select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_hot_upd as hot, n_tup_del as del from pg_stat_user_tables order by relname",
      );
      const now = JSON.stringify(rows);
      if (now === last) return Object.fromEntries(rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) }]));
      last = now;
      await new Promise((r) => setTimeout(r, 300));
      await client.query("select pg_stat_clear_snapshot()");
    }
    throw new Error("table statistics did not settle");
  } finally {
    await client.end();
  }
}

async function seed(database: Database): Promise<{ roomId: string; ownerId: string; partnerId: string }[]> {
  const db = database.db;
  const run = randomBytes(3).toString("hex");
  const people = Array.from({ length: ROOMS * 2 }, (_, i) => ({ id: `cw_${run}_${i}`, name: `ベンチ${i}`, email: `cw-${run}-${i}@example.com` }));
  await db.insert(users).values(people);
  await db.insert(profiles).values(people.map((u) => ({ userId: u.id, displayName: u.name, friendId: "1234567812345678" })));
  const expiresAt = new Date(Date.now() + 72 * 3_600_000);
  const offers = await db.insert(tradeOffers).values(Array.from({ length: ROOMS }, (_, r) => ({ ownerId: people[r * 2].id, expiresAt }))).returning({ id: tradeOffers.id });
  const rooms = await db
    .insert(chatRooms)
    .values(offers.map((o, r) => ({ offerId: o.id, ownerId: people[r * 2].id, partnerId: people[r * 2 + 1].id })))
    .returning({ id: chatRooms.id, ownerId: chatRooms.ownerId, partnerId: chatRooms.partnerId });
  return rooms.map((r) => ({ roomId: r.id, ownerId: r.ownerId, partnerId: r.partnerId }));
}

const created = await createBenchDatabase();
if (!created) {
  console.log("PostgreSQL is not reachable (BENCH_DATABASE_URL / TEST_DATABASE_URL): this count needs it.");
  process.exit(1);
}
let exitCode = 0;
try {
  const setup = await openDatabase({ kind: "postgres", url: created.url });
  await migrateDatabase(setup);
  const rooms = await seed(setup);
  // Every room has had its first message (the room's opening is recorded once, in a transaction
  // of its own): what is counted is the steady state of a conversation.
  for (const room of rooms) await sendMessage(setup.db, { roomId: room.roomId, userId: room.partnerId, clientId: `first-${room.roomId}`, body: "はじめまして" });
  await rowsOf(setup.db, sql`update delivery_outbox set status = 'sent', finished_at = now() where status = 'pending' returning id`);
  await setup.close();
  const before = await tableCounts(created.url);

  const database = await openDatabase({ kind: "postgres", url: created.url });
  const log = createLogger("warn");
  const dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-chat-writes-"));
  const env = {
    port: 0,
    host: "127.0.0.1",
    dataDir,
    siteUrl: "http://127.0.0.1:3000",
    smtpUrl: undefined,
    mailFrom: "トレポケ <no-reply@127.0.0.1>",
    authSecret: "b".repeat(40),
    notificationMailDelaySeconds: MAIL_DELAY_SECONDS,
    vapid: { publicKey: "", privateKey: "", subject: "mailto:no-reply@torepoke.test" },
    pushServiceOrigins: [],
  } as unknown as Env;
  counting = true;
  const deliveries = startDeliveries({ env, db: database.background, log });
  const started = Date.now();
  let sent = 0;
  await Promise.all(
    rooms.map(async (room) => {
      for (let i = 0; i < MESSAGES; i++) {
        const [from, to] = i % 2 === 0 ? [room.ownerId, room.partnerId] : [room.partnerId, room.ownerId];
        const result = await sendMessage(database.db, { roomId: room.roomId, userId: from, clientId: `m-${i}-${room.roomId}`, body: `メッセージ${i}` });
        if (result.created) sent++;
        // The socket handler tells the recipient's tabs their new unread total.
        await countUnread(database.db, to);
      }
    }),
  );
  const sendSeconds = (Date.now() - started) / 1000;
  // Counted before the settling loop below, whose own queries go through the requests' pool too.
  const requestStatements = statements.requests;
  // Everything the messages caused is done: nothing due in the outbox for a few seconds running
  // (mail checks included when due within half a minute; later ones are left pending).
  const within = MAIL_DELAY_SECONDS <= 30 ? MAIL_DELAY_SECONDS + 1 : 1;
  const settledBy = Date.now() + SETTLE_LIMIT_MS;
  let emptySince = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const [row] = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from delivery_outbox where status = 'pending' and run_at <= now() + make_interval(secs => ${within})`);
    if (Number(row.n) > 0) emptySince = 0;
    else if (!emptySince) emptySince = Date.now();
    else if (Date.now() - emptySince > 2500 + within * 1000) break;
    if (Date.now() > settledBy) throw new Error("the deliveries did not settle within a minute");
  }
  const busySeconds = (Date.now() - started) / 1000;
  // The outbox worker polls once a second whatever happens: measured idle, then taken out.
  const idleFrom = statements.background;
  await new Promise((r) => setTimeout(r, 5000));
  const idlePerSecond = (statements.background - idleFrom) / 5;
  const backgroundStatements = idleFrom - idlePerSecond * busySeconds;
  counting = false;
  await deliveries.stop();
  await database.close();
  const after = await tableCounts(created.url);

  const per = (n: number) => (n / sent).toFixed(2);
  console.log(`${sent} messages in ${rooms.length} rooms (${sendSeconds.toFixed(1)} s), deliveries settled after ${busySeconds.toFixed(1)} s; mail check ${MAIL_DELAY_SECONDS} s after a message`);
  console.log(`statements per message: requests' pool ${per(requestStatements)} (send + unread total), background pool ${per(backgroundStatements)} (deliveries; the worker's idle polls, ${idlePerSecond.toFixed(1)}/s, taken out), total ${per(requestStatements + backgroundStatements)}`);
  console.log(`\n${"table".padEnd(28)} ${"inserted".padStart(9)} ${"updated".padStart(9)} ${"of which HOT".padStart(12)} ${"deleted".padStart(8)}   (rows per message)`);
  let total = 0;
  for (const [table, a] of Object.entries(after)) {
    const b = before[table] ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, hot: a.hot - b.hot, del: a.del - b.del };
    if (!d.ins && !d.upd && !d.del) continue;
    total += d.ins + d.upd + d.del;
    console.log(`${table.padEnd(28)} ${per(d.ins).padStart(9)} ${per(d.upd).padStart(9)} ${per(d.hot).padStart(12)} ${per(d.del).padStart(8)}`);
  }
  console.log(`${"all tables".padEnd(28)} ${per(total).padStart(9)} rows written per message`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await created.drop();
}
process.exit(exitCode);
