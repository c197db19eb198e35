// `npm run bench:chat`: N socket clients in N/2 trade-chat rooms send at a steady total rate;
// prints send→receive latency (p50/p99), messages lost and duplicated, the server's event-loop
// delay, and the CPU of the server, the load generator, PostgreSQL and the whole machine. Each
// run measures a small baseline (BENCH_BASE_CLIENTS at BENCH_BASE_RATE) and then the full load on
// one instance, and prints the ratios; with BENCH_INSTANCES=2 also two instances fanning out
// through Redis (each room has one participant on each instance, the worst case).
// The clients run in BENCH_WORKERS forked processes (bench/chat-clients.ts), each holding whole
// rooms, so the sender's and the receiver's clock are the same monotonic clock and the send time
// travels in the message body. BENCH_BUILDS (default "build") names build directories to compare
// in the same run (e.g. "build-before,build"). Needs a build (`npm run build`), PostgreSQL
// (BENCH_DATABASE_URL / TEST_DATABASE_URL, default local) and, for two instances, Redis
// (BENCH_REDIS_URL / TEST_REDIS_URL). 127.0.0.1 only; every wait is bounded, and it stops by itself.
//
//   BENCH_CLIENTS (5000)  BENCH_RATE messages/s in total (1000)  BENCH_SECONDS (20)
//   BENCH_BASE_CLIENTS (100)  BENCH_BASE_RATE (50)  BENCH_WORKERS (clients / 2500, at least 1)
//   BENCH_INSTANCES (1)  BENCH_BUILDS (build)  BENCH_SERVER_NODE_OPTIONS (e.g. --cpu-prof)
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createClient } from "redis";
import pg from "pg";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { chatRooms, profiles, sessions, tradeOffers, users } from "#app/db/schema/index.ts";
import { sessionCookieFor } from "#tests/support/chat-factories.ts";
import { freePort, startServer, type RunningServer } from "#tests/support/server.ts";
import type { ClientReport, Participant } from "./chat-clients";
import { forkChatClients, type ChatWorker } from "./chat-workers";
import { createBenchDatabase, eventLoopDelay, ticksOf } from "./support";

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
const CLIENTS = even(Number(process.env.BENCH_CLIENTS ?? 5000));
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BASE_CLIENTS = Math.min(CLIENTS, even(Number(process.env.BENCH_BASE_CLIENTS ?? 100)));
const BASE_RATE = Number(process.env.BENCH_BASE_RATE ?? 50);
const INSTANCES = process.env.BENCH_INSTANCES === "2" ? 2 : 1;
const BUILDS = (process.env.BENCH_BUILDS ?? "build").split(",").filter(Boolean);
const workersFor = (clients: number) => Math.max(1, Number(process.env.BENCH_WORKERS ?? Math.ceil(clients / 2500)));
const DRAIN_MS = 10_000;
const ACK_TIMEOUT_MS = 10_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = randomBytes(32).toString("base64url");

/** Users, sessions, offers and rooms written straight into the bench's own database. */
async function seed(databaseUrl: string, count: number): Promise<Participant[]> {
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  await migrateDatabase(database);
  const db = database.db;
  const run = randomBytes(3).toString("hex");
  const people: Participant[] = [];
  const chunk = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  const userRows = Array.from({ length: count }, (_, i) => ({ id: `bench_${run}_${i}`, name: `ベンチ${i}`, email: `bench-${run}-${i}@example.com` }));
  for (const rows of chunk(userRows)) await db.insert(users).values(rows);
  for (const rows of chunk(userRows.map((u) => ({ userId: u.id, displayName: u.name, friendId: "1234567812345678" })))) await db.insert(profiles).values(rows);
  const tokens = userRows.map(() => randomBytes(24).toString("base64url"));
  const sessionRows = userRows.map((u, i) => ({ id: `s_${run}_${i}`, token: tokens[i], userId: u.id, expiresAt: new Date(Date.now() + 86_400_000) }));
  for (const rows of chunk(sessionRows)) await db.insert(sessions).values(rows);
  const expiresAt = new Date(Date.now() + 72 * 3_600_000);
  for (let pair = 0; pair < count / 2; pair++) {
    const owner = userRows[pair * 2];
    const partner = userRows[pair * 2 + 1];
    people.push({ userId: owner.id, roomId: "", cookie: sessionCookieFor(tokens[pair * 2], SECRET) });
    people.push({ userId: partner.id, roomId: "", cookie: sessionCookieFor(tokens[pair * 2 + 1], SECRET) });
  }
  const offerRows = Array.from({ length: count / 2 }, (_, pair) => ({ ownerId: userRows[pair * 2].id, expiresAt }));
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

/** Processes by name (PostgreSQL is shared: its other databases count too). */
function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** CPU (% of one core) of groups of processes and of the machine (% of all its cores) over a span. */
function watchCpu(groups: Record<string, () => number[]>) {
  const sum = (pids: number[]) => pids.reduce((a, pid) => a + ticksOf(pid), 0);
  const pidsAtStart = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, pids()]));
  const start = Object.fromEntries(Object.entries(pidsAtStart).map(([name, pids]) => [name, sum(pids)]));
  const machine = machineTicks();
  const started = Date.now();
  return () => {
    const seconds = (Date.now() - started) / 1000;
    const now = machineTicks();
    const out: Record<string, number> = {};
    for (const [name, pids] of Object.entries(pidsAtStart)) out[name] = ((sum(pids) - start[name]) / 100 / seconds) * 100;
    out.machine = ((now.busy - machine.busy) / Math.max(1, now.total - machine.total)) * 100;
    return out;
  };
}


type Writes = { tables: Record<string, number>; messages: number; commits: number };

/**
 * Rows written per table, chat messages stored and transactions committed in the bench's own
 * database so far. Read once the servers stopped: a backend reports its counts when it exits (and
 * a closed connection's report may take a moment, so readings are repeated until two agree).
 */
async function writesSoFar(url: string): Promise<Writes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let last = "";
    for (let i = 0; i < 20; i++) {
      await client.query("select pg_stat_clear_snapshot()");
      const tables = await client.query<{ relname: string; n: string; ins: string }>("select relname, n_tup_ins + n_tup_upd + n_tup_del as n, n_tup_ins as ins from pg_stat_user_tables");
      const db = await client.query<{ n: string }>("select xact_commit as n from pg_stat_database where datname = current_database()");
      const now: Writes = {
        tables: Object.fromEntries(tables.rows.map((r) => [r.relname, Number(r.n)])),
        messages: Number(tables.rows.find((r) => r.relname === "chat_messages")?.ins ?? 0),
        commits: Number(db.rows[0].n),
      };
      if (JSON.stringify(now.tables) === last) return now;
      last = JSON.stringify(now.tables);
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error("table statistics did not settle");
  } finally {
    await client.end();
  }
}

/**
 * Per message stored between two readings (retried sends are stored once; an acknowledgement lost
 * to a timeout still stored its message): rows written, by table, and transactions.
 */
function writesPerMessage(before: Writes, after: Writes): { messages: number; rows: number; commits: number; tables: string } {
  const messages = Math.max(1, after.messages - before.messages);
  const written = Object.entries(after.tables)
    .map(([table, n]) => [table, (n - (before.tables[table] ?? 0)) / messages] as const)
    .filter(([, n]) => n > 0.005)
    .sort((a, b) => b[1] - a[1]);
  return {
    messages,
    rows: written.reduce((a, [, n]) => a + n, 0),
    // Includes the few readings' own transactions (a handful in thousands).
    commits: (after.commits - before.commits) / messages,
    tables: written.map(([table, n]) => `${table} ${n.toFixed(2)}`).join(", "),
  };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

type CaseResult = { label: string; clients: number; rate: number; p50: number; p99: number; max: number; lost: number; duplicated: number; loopP99: number; loopMax: number; cpu: Record<string, number> };

async function runCase(label: string, people: Participant[], rate: number, servers: RunningServer[], metricsUrls: string[]): Promise<CaseResult> {
  const workerCount = Math.min(workersFor(people.length), people.length / 2);
  // Whole rooms per process: owner and partner are people[2k] and people[2k + 1].
  const rooms = people.length / 2;
  const workers: ChatWorker[] = [];
  for (let w = 0; w < workerCount; w++) {
    const from = Math.floor((rooms * w) / workerCount) * 2;
    const to = Math.floor((rooms * (w + 1)) / workerCount) * 2;
    workers.push(forkChatClients({ people: people.slice(from, to), urls: servers.map((s) => s.url), rate: (rate * (to - from)) / people.length, seconds: SECONDS, drainMs: DRAIN_MS, ackTimeoutMs: ACK_TIMEOUT_MS }));
  }
  const deadline = (ms: number, what: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms).unref());
  try {
    await Promise.race([Promise.all(workers.map((w) => w.ready)), ...workers.map((w) => w.report.then(() => {})), deadline(10 * 60_000, "connecting")]);
    await new Promise((r) => setTimeout(r, 1000));
    for (const url of metricsUrls) await eventLoopDelay(url); // resets the histogram: only the run counts
    const watch = watchCpu({
      server: () => servers.map((s) => s.process.pid!),
      load: () => [process.pid, ...workers.map((w) => w.child.pid!)],
      postgres: () => pidsNamed("postgres"),
    });
    for (const w of workers) w.child.send({ type: "go" });
    const reports = await Promise.race([Promise.all(workers.map((w) => w.report)), deadline((SECONDS + DRAIN_MS / 1000 + 60) * 1000, "the run")]);
    const cpu = watch();
    const loops = await Promise.all(metricsUrls.map(eventLoopDelay));
    const sorted = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const sum = (key: keyof Omit<ClientReport, "latencies">) => reports.reduce((a, r) => a + r[key], 0);
    const result: CaseResult = {
      label,
      clients: people.length,
      rate,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      lost: sum("lost"),
      duplicated: sum("duplicated"),
      loopP99: Math.max(...loops.map((l) => l.p99)),
      loopMax: Math.max(...loops.map((l) => l.max)),
      cpu,
    };
    console.log(`\n${label}: ${people.length} clients in ${rooms} rooms (${workerCount} load process${workerCount > 1 ? "es" : ""}), ${rate} msg/s for ${SECONDS} s`);
    console.log(`  sent ${sum("sent")}, acknowledged ${sum("acked")}, refused ${sum("refused")}, ack timeouts retried ${sum("retries")}`);
    console.log(`  send→receive latency  p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms   max ${result.max.toFixed(1)} ms`);
    console.log(`  lost (acknowledged, never delivered live) ${result.lost}   duplicated deliveries ${result.duplicated}`);
    console.log(`  server event-loop delay p99 ${result.loopP99.toFixed(1)} ms, max ${result.loopMax.toFixed(1)} ms`);
    console.log(`  CPU (% of one core): server ${cpu.server.toFixed(0)}%, load generator ${cpu.load.toFixed(0)}%, PostgreSQL (all databases) ${cpu.postgres.toFixed(0)}%; machine busy ${cpu.machine.toFixed(0)}% of its cores`);
    return result;
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
  }
}

async function withServers<T>(count: number, env: Record<string, string>, body: (servers: RunningServer[], metricsUrls: string[]) => Promise<T>): Promise<T> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const servers: RunningServer[] = [];
  try {
    for (const port of ports) servers.push(await startServer({ ...env, METRICS_PORT: String(port) }));
    return await body(servers, ports.map((p) => `http://127.0.0.1:${p}/metrics`));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

const results: CaseResult[] = [];
const databaseWork: string[] = [];
let exitCode = 0;
let pgVersion = "";
let mode = "";
let redisUp = false;
if (INSTANCES === 2) {
  const redis = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  redis.on("error", () => {});
  redisUp = await redis.connect().then(
    () => true,
    () => false,
  );
  if (redisUp) await redis.quit();
  else console.log(`Redis not reachable at ${REDIS_URL}: two-instance case skipped.`);
}
// A fresh database per build: a build must not inherit the outbox backlog (notifications still to
// dispatch) another build's run left behind.
for (const build of BUILDS) {
  const database = await createBenchDatabase();
  if (!database) {
    console.log("PostgreSQL is not reachable (BENCH_DATABASE_URL / TEST_DATABASE_URL): the chat benchmark needs it.");
    process.exit(1);
  }
  try {
    const people = await seed(database.url, CLIENTS);
    if (!pgVersion) {
      const version = new pg.Client({ connectionString: database.url });
      await version.connect();
      pgVersion = (await version.query<{ server_version: string }>("show server_version")).rows[0].server_version;
      await version.end();
    }
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: SECRET,
      SEED_CATALOGUE: "never",
      LOG_LEVEL: "warn",
      BUILD_DIR: build,
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    };
    await withServers(1, env, async (servers, metrics) => {
      results.push(await runCase(`[${build}] baseline, one instance`, people.slice(0, BASE_CLIENTS), BASE_RATE, servers, metrics));
      mode = servers[0].mode;
    });
    if (build === BUILDS[0]) console.log(`server mode: ${mode}, database: PostgreSQL ${pgVersion} (pool of 10 per instance)`);
    const writesBefore = await writesSoFar(database.url);
    await withServers(1, env, async (servers, metrics) => {
      results.push(await runCase(`[${build}] one instance`, people, RATE, servers, metrics));
    });
    // The servers have stopped (their connections reported what they wrote): the database work of
    // the one-instance case, deliveries included, per message.
    const written = writesPerMessage(writesBefore, await writesSoFar(database.url));
    const pending = new pg.Client({ connectionString: database.url });
    await pending.connect();
    const [backlog] = (await pending.query<{ n: string }>("select count(*) as n from delivery_outbox where status = 'pending'")).rows;
    await pending.end();
    databaseWork.push(`[${build}] ${written.messages} messages stored; rows written per message ${written.rows.toFixed(2)} (${written.tables}); transactions ${written.commits.toFixed(2)}; outbox rows still pending after the servers stopped: ${backlog.n}`);
    if (redisUp) {
      await withServers(2, { ...env, REDIS_URL }, async (servers, metrics) => {
        results.push(await runCase(`[${build}] two instances + Redis`, people, RATE, servers, metrics));
      });
    }
  } catch (err) {
    console.error(err);
    exitCode = 1;
  } finally {
    await database.drop();
  }
}

if (results.length) {
  const base = results[0];
  console.log(`\n${"case".padEnd(44)} ${"clients".padStart(7)} ${"msg/s".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"×p99 vs base".padStart(12)} ${"loop p99".padStart(8)} ${"lost".padStart(5)} ${"dup".padStart(4)} ${"srv CPU".padStart(7)} ${"load CPU".padStart(8)}`);
  for (const r of results) {
    console.log(
      `${r.label.padEnd(44)} ${String(r.clients).padStart(7)} ${String(r.rate).padStart(6)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${(r.p99 / base.p99).toFixed(2).padStart(12)} ${r.loopP99.toFixed(1).padStart(8)} ${String(r.lost).padStart(5)} ${String(r.duplicated).padStart(4)} ${`${r.cpu.server.toFixed(0)}%`.padStart(7)} ${`${r.cpu.load.toFixed(0)}%`.padStart(8)}`,
    );
  }
  console.log(`aim: p99 < 100 ms at ${RATE} msg/s on one instance, lost 0, duplicated 0 (base: the first row, same run)`);
  console.log("\ndatabase work of the one-instance case, per stored message (pg_stat_user_tables; mail checks due later are still pending):");
  for (const line of databaseWork) console.log(`  ${line}`);
}
process.exit(exitCode);
