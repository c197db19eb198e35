// `npm run bench:push`: BENCH_PLAYERS (1000) players in rooms of two, every one with a push
// subscription at a local push service (web-push-testing's model, in this process: it checks the
// VAPID signature and decrypts every push). The partners send BENCH_RATE (200) chat messages per
// second in total for BENCH_SECONDS (30) while the owners are away (no socket): each message writes
// a notification and its push goes out through the outbox. Prints notifications per second, p50/p99
// from the message's commit (its ack) to the push reaching the push service, pushes lost and
// duplicated, and chat:send p99 against the same run with no device subscribed. Needs a build and
// PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL, default local). 127.0.0.1 only; bounded in time.
import { randomBytes } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import webpush from "web-push";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { chatRooms, profiles, pushSubscriptions, sessions, tradeOffers, users } from "#app/db/schema/index.ts";
import type { Ack, ChatMessage, ClientToServerEvents, ServerToClientEvents } from "#app/features/chat/protocol.ts";
import { sessionCookieFor } from "#tests/support/chat-factories.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { startServer } from "#tests/support/server.ts";
import { createBenchDatabase } from "./support";

type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

const PLAYERS = Math.max(2, Math.floor(Number(process.env.BENCH_PLAYERS ?? 1000) / 2) * 2);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const DRAIN_MS = 30_000;
const SECRET = randomBytes(32).toString("base64url");
const VAPID = webpush.generateVAPIDKeys();

type Room = { roomId: string; ownerId: string; partnerCookie: string };

const chunk = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function seed(url: string, push: TestPushService | null): Promise<{ rooms: Room[]; hashOf: Map<string, string> }> {
  const database = await openDatabase({ kind: "postgres", url });
  await migrateDatabase(database);
  const db = database.db;
  const run = randomBytes(3).toString("hex");
  const userRows = Array.from({ length: PLAYERS }, (_, i) => ({ id: `pb_${run}_${i}`, name: `プッシュ${i}`, email: `push-${run}-${i}@example.com` }));
  for (const rows of chunk(userRows)) await db.insert(users).values(rows);
  for (const rows of chunk(userRows.map((u) => ({ userId: u.id, displayName: u.name, friendId: "1234567812345678" })))) await db.insert(profiles).values(rows);
  const tokens = userRows.map(() => randomBytes(24).toString("base64url"));
  for (const rows of chunk(userRows.map((u, i) => ({ id: `ps_${run}_${i}`, token: tokens[i], userId: u.id, expiresAt: new Date(Date.now() + 86_400_000) })))) await db.insert(sessions).values(rows);
  const expiresAt = new Date(Date.now() + 72 * 3_600_000);
  const offerIds: string[] = [];
  for (const rows of chunk(Array.from({ length: PLAYERS / 2 }, (_, pair) => ({ ownerId: userRows[pair * 2].id, expiresAt }))))
    offerIds.push(...(await db.insert(tradeOffers).values(rows).returning({ id: tradeOffers.id })).map((r) => r.id));
  const roomIds: string[] = [];
  for (const rows of chunk(offerIds.map((offerId, pair) => ({ offerId, ownerId: userRows[pair * 2].id, partnerId: userRows[pair * 2 + 1].id }))))
    roomIds.push(...(await db.insert(chatRooms).values(rows).returning({ id: chatRooms.id })).map((r) => r.id));
  const hashOf = new Map<string, string>(); // owner id → push client hash
  if (push) {
    const subs = [];
    for (const u of userRows) {
      const s = await push.subscribe(VAPID.publicKey);
      hashOf.set(u.id, s.clientHash);
      subs.push({ userId: u.id, endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth });
    }
    for (const rows of chunk(subs)) await db.insert(pushSubscriptions).values(rows);
  }
  await database.close();
  return { rooms: roomIds.map((roomId, pair) => ({ roomId, ownerId: userRows[pair * 2].id, partnerCookie: sessionCookieFor(tokens[pair * 2 + 1], SECRET) })), hashOf };
}

async function runCase(withDevices: boolean) {
  const database = await createBenchDatabase();
  if (!database) throw new Error("PostgreSQL is not reachable (BENCH_DATABASE_URL / TEST_DATABASE_URL)");
  const push = withDevices ? await startTestPushService() : null;
  const { rooms, hashOf } = await seed(database.url, push);
  const server = await startServer({
    DATABASE_URL: database.url,
    BETTER_AUTH_SECRET: SECRET,
    SEED_CATALOGUE: "never",
    LOG_LEVEL: "warn",
    VAPID_PUBLIC_KEY: VAPID.publicKey,
    VAPID_PRIVATE_KEY: VAPID.privateKey,
    ...(push ? { PUSH_SERVICE_ORIGINS: push.url } : {}),
  });
  try {
    const sockets: ChatClient[] = [];
    for (const group of chunk(rooms, 50)) {
      sockets.push(
        ...(await Promise.all(
          group.map(
            (room) =>
              new Promise<ChatClient>((resolve, reject) => {
                const socket: ChatClient = connect(`${server.url}/chat`, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { cookie: room.partnerCookie, origin: server.url } });
                socket.once("connect", () => resolve(socket));
                socket.once("connect_error", reject);
              }),
          ),
        )),
      );
    }
    // Per room: the ack time of its k-th message (k = the notification's count then).
    const ackedAt = rooms.map(() => [] as number[]);
    const sendLatency: number[] = [];
    let refused = 0;
    const queues = rooms.map(() => 0);
    const busy = rooms.map(() => false);
    const pump = (i: number) => {
      if (busy[i] || queues[i] === 0) return;
      busy[i] = true;
      const started = performance.now();
      sockets[i].timeout(20_000).emit("chat:send", { roomId: rooms[i].roomId, clientId: randomBytes(8).toString("hex"), body: "ベンチ" }, (err: Error | null, reply: Ack<{ message: ChatMessage }>) => {
        busy[i] = false;
        queues[i]--;
        if (err || !reply.ok) refused++;
        else {
          const now = performance.now();
          sendLatency.push(now - started);
          ackedAt[i].push(Date.now());
        }
        pump(i);
      });
    };
    const total = RATE * SECONDS;
    let next = 0;
    const began = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * RATE));
        for (; next < due; next++) {
          const i = (next * 7919) % rooms.length;
          queues[i]++;
          pump(i);
        }
        if (next >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    const sent = () => ackedAt.reduce((n, a) => n + a.length, 0);
    const roomOfHash = new Map(rooms.map((r, i) => [hashOf.get(r.ownerId), i]));
    // What reached the push service, per room: count → arrival times.
    const pushed = () => {
      const byRoom = rooms.map(() => new Map<number, number[]>());
      for (const p of push?.received ?? []) {
        const i = roomOfHash.get(p.clientHash);
        if (i === undefined) continue;
        const k = Number(/(\d+)件/.exec(JSON.parse(p.payload).body)?.[1]);
        byRoom[i].set(k, [...(byRoom[i].get(k) ?? []), p.at]);
      }
      return byRoom;
    };
    const settledAll = () => rooms.every((_, i) => queues[i] === 0) && (!push || pushed().every((m, i) => ackedAt[i].length === 0 || m.has(ackedAt[i].length)));
    const drainUntil = Date.now() + DRAIN_MS;
    while (Date.now() < drainUntil && !settledAll()) await new Promise((r) => setTimeout(r, 200));
    const elapsed = (performance.now() - began) / 1000;
    for (const s of sockets) s.close();
    const sorted = [...sendLatency].sort((a, b) => a - b);
    const result = { messages: sent(), refused, sendP50: percentile(sorted, 50), sendP99: percentile(sorted, 99), elapsed, pushes: 0, lost: 0, duplicated: 0, collapsed: 0, pushP50: NaN, pushP99: NaN };
    if (push) {
      const latencies: number[] = [];
      pushed().forEach((m, i) => {
        const last = ackedAt[i].length;
        if (last > 0 && !m.has(last)) result.lost++;
        for (const [k, times] of m) {
          result.pushes += times.length;
          if (times.length > 1) result.duplicated += times.length - 1;
          const commit = ackedAt[i][k - 1];
          if (commit !== undefined) latencies.push(times[0] - commit);
        }
        // Superseded before they went out: the room's later push (same topic) carries them.
        result.collapsed += Math.max(0, last - m.size);
      });
      latencies.sort((a, b) => a - b);
      result.pushP50 = percentile(latencies, 50);
      result.pushP99 = percentile(latencies, 99);
    }
    return { ...result, mode: server.mode };
  } finally {
    await server.stop();
    await push?.close();
    await database.drop();
  }
}

const without = await runCase(false);
const withPush = await runCase(true);
console.log(`server mode: ${withPush.mode}; ${PLAYERS} players (${PLAYERS / 2} rooms), ${RATE} msg/s for ${SECONDS} s`);
console.log(`notifications written: ${withPush.messages} (${(withPush.messages / SECONDS).toFixed(0)}/s), pushes received: ${withPush.pushes}, superseded by the room's next push: ${withPush.collapsed}`);
console.log(`commit → push at the push service: p50 ${withPush.pushP50.toFixed(0)} ms, p99 ${withPush.pushP99.toFixed(0)} ms; lost ${withPush.lost}, duplicated ${withPush.duplicated}`);
console.log(`chat:send p99: ${withPush.sendP99.toFixed(1)} ms with ${PLAYERS} subscribed devices, ${without.sendP99.toFixed(1)} ms with none (p50 ${withPush.sendP50.toFixed(1)} / ${without.sendP50.toFixed(1)} ms); refused ${withPush.refused}/${without.refused}`);
process.exit(0);
