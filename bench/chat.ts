// `npm run bench:chat`: N socket clients in N/2 trade-chat rooms send at a steady total rate;
// prints send→receive latency (p50/p99), messages lost and duplicated, and the servers' CPU and
// memory — first on one instance, then on two instances fanning out through Redis (each room
// has one participant on each instance, the worst case). Needs a build (`npm run build`),
// PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL, default local) and, for the second case,
// Redis (BENCH_REDIS_URL / TEST_REDIS_URL, default local). 127.0.0.1 only; bounded in time.
//
//   BENCH_CLIENTS (1000)  BENCH_RATE messages/s in total (500)  BENCH_SECONDS (30)
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClient } from "redis";
import { io as connect, type Socket } from "socket.io-client";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { chatRooms, profiles, sessions, tradeOffers, users } from "../app/db/schema/index";
import type { Ack, ChatMessage, ClientToServerEvents, ServerToClientEvents } from "../app/features/chat/protocol";
import { sessionCookieFor } from "../tests/support/chat-factories";
import { startServer, type RunningServer } from "../tests/support/server";
import { createBenchDatabase } from "./support";

type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

const CLIENTS = Math.max(2, Math.floor(Number(process.env.BENCH_CLIENTS ?? 1000) / 2) * 2);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const DRAIN_MS = 10_000;
const ACK_TIMEOUT_MS = 10_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = randomBytes(32).toString("base64url");

type Participant = { userId: string; roomId: string; cookie: string };

/** Users, sessions, offers and rooms written straight into the bench's own database. */
async function seed(databaseUrl: string): Promise<Participant[]> {
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  await migrateDatabase(database);
  const db = database.db;
  const run = randomBytes(3).toString("hex");
  const people: Participant[] = [];
  const chunk = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  const userRows = Array.from({ length: CLIENTS }, (_, i) => ({ id: `bench_${run}_${i}`, name: `ベンチ${i}`, email: `bench-${run}-${i}@example.com` }));
  for (const rows of chunk(userRows)) await db.insert(users).values(rows);
  for (const rows of chunk(userRows.map((u) => ({ userId: u.id, displayName: u.name, friendId: "1234567812345678" })))) await db.insert(profiles).values(rows);
  const tokens = userRows.map(() => randomBytes(24).toString("base64url"));
  const sessionRows = userRows.map((u, i) => ({ id: `s_${run}_${i}`, token: tokens[i], userId: u.id, expiresAt: new Date(Date.now() + 86_400_000) }));
  for (const rows of chunk(sessionRows)) await db.insert(sessions).values(rows);
  const expiresAt = new Date(Date.now() + 72 * 3_600_000);
  for (let pair = 0; pair < CLIENTS / 2; pair++) {
    const owner = userRows[pair * 2];
    const partner = userRows[pair * 2 + 1];
    people.push({ userId: owner.id, roomId: "", cookie: sessionCookieFor(tokens[pair * 2], SECRET) });
    people.push({ userId: partner.id, roomId: "", cookie: sessionCookieFor(tokens[pair * 2 + 1], SECRET) });
  }
  const offerRows = Array.from({ length: CLIENTS / 2 }, (_, pair) => ({ ownerId: userRows[pair * 2].id, expiresAt }));
  const offerIds: string[] = [];
  for (const rows of chunk(offerRows)) offerIds.push(...(await db.insert(tradeOffers).values(rows).returning({ id: tradeOffers.id })).map((r) => r.id));
  const roomRows = offerIds.map((offerId, pair) => ({ offerId, ownerId: userRows[pair * 2].id, partnerId: userRows[pair * 2 + 1].id }));
  const roomIds: string[] = [];
  for (const rows of chunk(roomRows)) roomIds.push(...(await db.insert(chatRooms).values(rows).returning({ id: chatRooms.id })).map((r) => r.id));
  roomIds.forEach((roomId, pair) => {
    people[pair * 2].roomId = roomId;
    people[pair * 2 + 1].roomId = roomId;
  });
  await database.close();
  return people;
}

/** CPU (% of one core) and resident memory of server processes, sampled once a second. */
function watchProcesses(pids: number[]) {
  const ticks = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100/s)
  };
  const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const start = pids.map(ticks);
  const started = Date.now();
  let last = pids.map(ticks);
  let lastAt = Date.now();
  const peakCpu = pids.map(() => 0);
  const peakRss = pids.map(rssMb);
  const timer = setInterval(() => {
    const now = pids.map(ticks);
    const at = Date.now();
    now.forEach((t, i) => {
      peakCpu[i] = Math.max(peakCpu[i], ((t - last[i]) / 100 / ((at - lastAt) / 1000)) * 100);
      peakRss[i] = Math.max(peakRss[i], rssMb(pids[i]));
    });
    last = now;
    lastAt = at;
  }, 1000);
  return () => {
    clearInterval(timer);
    const seconds = (Date.now() - started) / 1000;
    return pids.map((pid, i) => ({ avgCpu: ((ticks(pid) - start[i]) / 100 / seconds) * 100, peakCpu: peakCpu[i], peakRssMb: peakRss[i] }));
  };
}

function connectAll(people: Participant[], servers: RunningServer[]): Promise<ChatClient[]> {
  const connectOne = (p: Participant, i: number) =>
    new Promise<ChatClient>((resolve, reject) => {
      // Owner on the first instance, partner on the last: with two instances every message crosses Redis.
      const server = servers[i % 2 === 0 ? 0 : servers.length - 1];
      const socket: ChatClient = connect(`${server.url}/chat`, {
        transports: ["websocket"],
        reconnection: false,
        forceNew: true,
        extraHeaders: { cookie: p.cookie, origin: server.url },
      });
      socket.once("connect", () => {
        socket.emit("chat:join", { roomId: p.roomId }, (reply) => (reply.ok ? resolve(socket) : reject(new Error(reply.message))));
      });
      socket.once("connect_error", reject);
    });
  return (async () => {
    const sockets: ChatClient[] = [];
    for (let i = 0; i < people.length; i += 50) {
      sockets.push(...(await Promise.all(people.slice(i, i + 50).map((p, j) => connectOne(p, i + j)))));
    }
    return sockets;
  })();
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function runCase(label: string, people: Participant[], servers: RunningServer[]) {
  const sockets = await connectAll(people, servers);
  const sentAt = new Map<string, number>(); // clientId → first send time
  const acked = new Set<string>();
  const received = new Map<string, number>(); // clientId → times seen by the partner
  const latencies: number[] = [];
  let refused = 0;
  let retries = 0;
  sockets.forEach((socket, i) => {
    const me = people[i].userId;
    socket.on("chat:message", (m: ChatMessage) => {
      if (m.senderId === me || !m.clientId || m.clientId.startsWith("warm-")) return;
      const n = (received.get(m.clientId) ?? 0) + 1;
      received.set(m.clientId, n);
      if (n === 1) latencies.push(performance.now() - (sentAt.get(m.clientId) ?? performance.now()));
    });
  });

  // Like the browser: one message in flight per client (the next waits for the ack), and a
  // send without an ack in time is retried with the same clientId.
  const queues = sockets.map(() => [] as { clientId: string; body: string }[]);
  const busy = sockets.map(() => false);
  const pump = (i: number) => {
    const head = queues[i][0];
    if (!head || busy[i]) return;
    busy[i] = true;
    sockets[i].timeout(ACK_TIMEOUT_MS).emit("chat:send", { roomId: people[i].roomId, clientId: head.clientId, body: head.body }, (err: Error | null, reply: Ack<{ message: ChatMessage }>) => {
      busy[i] = false;
      if (err) retries++;
      else {
        queues[i].shift();
        if (reply.ok) acked.add(head.clientId);
        else refused++;
      }
      pump(i);
    });
  };
  const send = (i: number, clientId: string, body: string) => {
    queues[i].push({ clientId, body });
    pump(i);
  };

  // Warm-up (not measured): one message in every room, so code paths and connections are hot.
  await Promise.all(
    sockets
      .filter((_, i) => i % 2 === 0)
      .map((socket, pair) => socket.timeout(30_000).emitWithAck("chat:send", { roomId: people[pair * 2].roomId, clientId: `warm-${pair}`, body: "warm-up" }).catch(() => null)),
  );
  await new Promise((r) => setTimeout(r, 1000));
  received.clear();
  latencies.length = 0;

  const watch = watchProcesses(servers.map((s) => s.process.pid!));
  const total = RATE * SECONDS;
  let next = 0;
  const began = performance.now();
  await new Promise<void>((resolve) => {
    // Every 10 ms, send what the schedule says is due: a steady total rate, not bursts.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * RATE));
      for (; next < due; next++) {
        const i = (next * 7919) % sockets.length; // spread senders over every client
        const clientId = `b${next}`;
        sentAt.set(clientId, performance.now());
        send(i, clientId, `ベンチ ${next}`);
      }
      if (next >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const drainUntil = Date.now() + DRAIN_MS;
  while (Date.now() < drainUntil && (acked.size + refused < total || [...acked].some((id) => !received.has(id)))) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const usage = watch();
  for (const s of sockets) s.close();

  const lost = [...acked].filter((id) => !received.has(id)).length;
  const duplicated = [...received.values()].filter((n) => n > 1).length;
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`\n${label}: ${sockets.length} clients in ${sockets.length / 2} rooms, ${RATE} msg/s for ${SECONDS} s`);
  console.log(`  sent ${total}, acknowledged ${acked.size}, refused ${refused}, ack timeouts retried ${retries}`);
  console.log(`  send→receive latency  p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${sorted.at(-1)?.toFixed(1)} ms`);
  console.log(`  lost (acknowledged, never delivered live) ${lost}   duplicated deliveries ${duplicated}`);
  usage.forEach((u, i) => console.log(`  server ${i + 1}: CPU avg ${u.avgCpu.toFixed(0)}% / peak ${u.peakCpu.toFixed(0)}% of one core, RSS peak ${u.peakRssMb.toFixed(0)} MB`));
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), lost, duplicated };
}

const database = await createBenchDatabase();
if (!database) {
  console.log("PostgreSQL is not reachable (BENCH_DATABASE_URL / TEST_DATABASE_URL): the chat benchmark needs it.");
  process.exit(1);
}
const serverEnv = { DATABASE_URL: database.url, BETTER_AUTH_SECRET: SECRET, SEED_CATALOGUE: "never", LOG_LEVEL: "warn" };
const results: { label: string; p50: number; p99: number; lost: number; duplicated: number }[] = [];
try {
  const people = await seed(database.url);
  const single = await startServer(serverEnv);
  console.log(`server mode: ${single.mode}`);
  try {
    results.push({ label: "1 instance", ...(await runCase("one instance", people, [single])) });
  } finally {
    await single.stop();
  }

  const redis = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  redis.on("error", () => {});
  const redisUp = await redis.connect().then(
    () => true,
    () => false,
  );
  if (redisUp) await redis.quit();
  if (!redisUp) {
    console.log(`\nRedis not reachable at ${REDIS_URL}: two-instance case skipped.`);
  } else {
    const one = await startServer({ ...serverEnv, REDIS_URL });
    const two = await startServer({ ...serverEnv, REDIS_URL });
    try {
      results.push({ label: "2 instances + Redis", ...(await runCase("two instances + Redis", people, [one, two])) });
    } finally {
      await one.stop();
      await two.stop();
    }
  }
} finally {
  await database.drop();
}

const base = results[0];
console.log("\ncase".padEnd(24), "p50 ms".padStart(8), "p99 ms".padStart(8), "×p99 vs 1".padStart(10), "lost".padStart(6), "dup".padStart(5));
for (const r of results) {
  console.log(r.label.padEnd(23), r.p50.toFixed(1).padStart(8), r.p99.toFixed(1).padStart(8), (r.p99 / base.p99).toFixed(2).padStart(10), String(r.lost).padStart(6), String(r.duplicated).padStart(5));
}
console.log(`aim: p99 < 100 ms at ${RATE} msg/s, lost 0, duplicated 0`);
