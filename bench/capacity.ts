// `npm run bench:capacity`: what one instance, and two behind nginx, carry at a realistic evening
// peak. The mix of bench/capacity-mix.ts (anonymous visitors on card, deck, article and offer
// pages; signed-in players on the board, マッチ, offers, /notifications and /collection, their
// writes, and a chat socket each) is offered at a fixed arrival rate — open loop: requests are
// scheduled by the clock (Poisson arrivals) whatever the answers do, and each latency is counted
// from the moment the request was due, so a slow server cannot slow the load down and hide its
// queue (no coordinated omission). The rate is raised step by step until the p99 of all HTTP
// requests or of chat delivery passes 200 ms or anything fails, then refined between the last
// good step and the first bad one. Per step: arrival rate, p50/p99 per request kind, chat
// delivery p99, errors, and the CPU of the server(s), of PostgreSQL's backends of this database
// and of the load generator; at the end the capacity as requests/s and as people served.
//
// PostgreSQL (a fresh database on BENCH_DATABASE_URL / TEST_DATABASE_URL, dropped after) and Redis
// (BENCH_REDIS_URL / TEST_REDIS_URL) are required; nginx only for the two-instance part. Needs a
// build (`npx react-router build`). 127.0.0.1 only; every wait is bounded and the run stops by
// itself (BENCH_BUDGET_MINUTES, default 13, ends the climbing early and still prints the result).
//
//   BENCH_STEP_SECONDS (20)  BENCH_START_RATE requests/s (20)  BENCH_STEP_FACTOR (1.5)
//   BENCH_REFINE steps between the last good and first bad rate (2)  BENCH_OFFERS (20000)
//   BENCH_CONFIRM (1: a failed step is run again and the second run decides; 0: no)
//   BENCH_PLAYERS seeded signed-in players (6000)  BENCH_P99_MS (200)  BENCH_INSTANCES (1,2)
//   BENCH_WARMUP_SECONDS (15, at half the start rate, not counted)  BENCH_QUIET_WAIT_SECONDS (10: before
//   each step, at most this long for other processes to fall under half a core)
//   BENCH_BUILDS (build: build folders whose one-instance ladders are compared, e.g. build-before,build)
//   BENCH_SERVER_FLAGS (Node flags for the server after the start script's, e.g. --cpu-prof)
//   BENCH_CALIBRATE_SECONDS (2 per kind, after the one-instance ladder: CPU per request kind; 0 skips it)
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createClient } from "redis";
import { migrateDatabase, openDatabase, type Db } from "#app/db/client.server.ts";
import { chatRooms, profiles, tradeOffers, users } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";
import { pairsByRarity } from "#app/features/trades/rules.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { prng, seedTradeOffers } from "#scripts/seed-trades.ts";
import { nginxBinary, startNginx, type RunningNginx } from "#tests/support/nginx.ts";
import { freePort, startServer, type RunningServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { KINDS, PER_PERSON_MINUTE, PLAYER_HIT_SHARE, SLICE_PER_MINUTE, VISITORS_PER_PLAYER, CHAT_PER_PLAYER_MINUTE, kindPicker, populationAt, skewed, type Kind, type KindName } from "./capacity-mix";
import type { Participant } from "./chat-clients";
import { forkChatClients } from "./chat-workers";
import { longArticle } from "./fixtures";
import { createBenchDatabase, eventLoopDelay, insertSessions, signInAs, ticksOf } from "./support";

const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 20);
const START_RATE = Number(process.env.BENCH_START_RATE ?? 20);
const STEP_FACTOR = Number(process.env.BENCH_STEP_FACTOR ?? 1.5);
const REFINE = Number(process.env.BENCH_REFINE ?? 2);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 20_000);
const PLAYERS = Math.floor(Number(process.env.BENCH_PLAYERS ?? 6000) / 2) * 2;
const P99_LIMIT_MS = Number(process.env.BENCH_P99_MS ?? 200);
const INSTANCE_COUNTS = (process.env.BENCH_INSTANCES ?? "1,2").split(",").map(Number);
/** Build folders whose one-instance ladders are compared in this run (the last one also runs the two-instance part). */
const BUILDS = (process.env.BENCH_BUILDS ?? "build").split(",").filter(Boolean);
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MINUTES ?? 13) * 60_000;
/** Whether a failed step is run again before its rate counts as failed (BENCH_CONFIRM=0: no). */
const CONFIRM = process.env.BENCH_CONFIRM !== "0";
const CALIBRATE_SECONDS = Number(process.env.BENCH_CALIBRATE_SECONDS ?? 2);
/** Node flags for the server(s) after the start script's own (a later flag wins), e.g. `--cpu-prof --cpu-prof-dir=…` or another `--max-semi-space-size`. */
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? "").split(/\s+/).filter(Boolean);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
const REQUEST_TIMEOUT_MS = 10_000;
const cpus = availableParallelism();
/** Other processes above this (% of one core) make a step's latencies say more about the machine than about the site. */
const BUSY_OTHERS = 50;
/** How long a step waits for the rest of the machine to fall under BUSY_OTHERS before it starts anyway. */
const QUIET_WAIT_MS = Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 10) * 1000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = randomBytes(32).toString("base64url");
const ADMIN = { email: "bench-capacity-admin@example.com", password: "bench-capacity-admin-pass-41", name: "管理ベンチ" };
const began = Date.now();
const overBudget = () => Date.now() - began > BUDGET_MS;

// ---------------------------------------------------------------------------------------------
// Data: the catalogue, a board, signed-in players in pairs sharing an open chat room, content.

type Player = Participant & { index: number };
type Fixture = {
  players: Player[];
  cardIds: string[];
  /** Open offers on the board (newest first) with their cards, for offer pages, 交渉する and posting. */
  offers: { id: string; give: { cardId: string; count: number }[]; want: { cardId: string; count: number }[] }[];
  /** Cards that can be traded (on some open offer): the want-list's adds. */
  tradeable: string[];
  articles: string[];
  decks: string[];
};

const chunk = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

/** Players with a friend ID and a session each, written straight into the database (as bench:chat does); pairs share a room. */
async function seedPlayers(db: Db, count: number): Promise<Player[]> {
  const run = randomBytes(3).toString("hex");
  const userRows = Array.from({ length: count }, (_, i) => ({ id: `cap_${run}_${i}`, name: `プレイヤー${i}`, email: `cap-${run}-${i}@example.com` }));
  for (const rows of chunk(userRows)) await db.insert(users).values(rows);
  for (const rows of chunk(userRows.map((u, i) => ({ userId: u.id, displayName: u.name, friendId: String(5000_0000_0000_0000 + i) })))) await db.insert(profiles).values(rows);
  const cookies = await insertSessions(db, userRows.map((u) => u.id), SECRET, { expiresAt: new Date(Date.now() + 86_400_000) });
  // Each pair trades over an offer of the first player's that the second is negotiating (取引中,
  // so it is off the board): the room both sockets join and chat in.
  const expiresAt = new Date(Date.now() + 72 * 3_600_000);
  const offerRows = Array.from({ length: count / 2 }, (_, pair) => ({ ownerId: userRows[pair * 2].id, partnerId: userRows[pair * 2 + 1].id, status: "negotiating", expiresAt }));
  const offerIds: string[] = [];
  for (const rows of chunk(offerRows)) offerIds.push(...(await db.insert(tradeOffers).values(rows).returning({ id: tradeOffers.id })).map((r) => r.id));
  const roomIds: string[] = [];
  for (const rows of chunk(offerIds.map((offerId, pair) => ({ offerId, ownerId: userRows[pair * 2].id, partnerId: userRows[pair * 2 + 1].id })))) {
    roomIds.push(...(await db.insert(chatRooms).values(rows).returning({ id: chatRooms.id })).map((r) => r.id));
  }
  return userRows.map((u, i) => ({ index: i, userId: u.id, roomId: roomIds[Math.floor(i / 2)], cookie: cookies[i] }));
}

async function seedData(databaseUrl: string): Promise<Omit<Fixture, "articles" | "decks">> {
  const database = await openDatabase({ kind: "postgres", url: databaseUrl });
  try {
    await migrateDatabase(database);
    const db = database.db;
    const t = Date.now();
    await seedCatalogue(db);
    const seeded = await seedTradeOffers(db, { offers: OFFERS });
    const players = await seedPlayers(db, PLAYERS);
    const cardIds = (await rowsOf<{ id: string }>(db, sql`select id from cards order by id`)).map((r) => r.id);
    const offerRows = await rowsOf<{ id: string; side: string; card_id: string; count: number; rarity: string }>(
      db,
      sql`select o.id, c.side, c.card_id, c.count, k.rarity from (select id, bumped_at from trade_offers where status = 'open' and expires_at > now() order by bumped_at desc limit 2000) o
          join trade_offer_cards c on c.offer_id = o.id join cards k on k.id = c.card_id order by o.bumped_at desc`,
    );
    const byId = new Map<string, Fixture["offers"][number]>();
    const rarityOf = new Map<string, string>();
    for (const r of offerRows) {
      const offer = byId.get(r.id) ?? { id: r.id, give: [], want: [] };
      byId.set(r.id, offer);
      rarityOf.set(r.card_id, r.rarity);
      (r.side === "give" ? offer.give : offer.want).push({ cardId: r.card_id, count: Number(r.count) });
    }
    // Only offers whose cards the trade rules let through: the offer page shows 交渉する only on
    // those. Posting a copy of one must be a valid post too, so it needs a same-rarity pair: the
    // seed skips a want card already on the give side, which leaves a few offers without one, and
    // a copy of those answers 400 no_same_rarity_pair.
    const closed = await offersClosedByRules(db, [...byId.values()]);
    const paired = (o: Fixture["offers"][number]) => {
      const withRarity = (side: { cardId: string }[]) => side.map((c) => ({ cardId: c.cardId, rarity: rarityOf.get(c.cardId) ?? "" }));
      return pairsByRarity(withRarity(o.give), withRarity(o.want)).length > 0;
    };
    const offers = [...byId.values()].filter((o) => o.give.length && o.want.length && !closed.has(o.id) && paired(o));
    const tradeable = [...new Set(offers.flatMap((o) => [...o.give, ...o.want].map((c) => c.cardId)))];
    console.log(`seeded ${cardIds.length} cards, ${seeded.offers} offers by ${seeded.users} users (${offers.length} of the newest 2,000 open to 交渉する and with a same-rarity pair, used as copies), ${players.length} signed-in players in ${players.length / 2} open rooms in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    return { players, cardIds, offers, tradeable };
  } finally {
    await database.close();
  }
}

// A legal 20-card deck of the catalogue (bench:pages and bench:decks use the same).
const DECK_CARDS = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));

/** Articles and deck recipes through the admin API (an administrator verified from its mail), as bench:pages does. */
async function seedContent(server: RunningServer, cardIds: string[]): Promise<{ articles: string[]; decks: string[] }> {
  const { url } = server;
  const headers = { origin: url, "content-type": "application/json" };
  const up = await fetch(`${url}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify(ADMIN) });
  if (!up.ok) throw new Error(`sign-up failed: ${up.status} ${await up.text()}`);
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = await signInAs(url, ADMIN);
  const post = async (endpoint: string, body: Record<string, unknown>) => {
    const res = await fetch(`${url}${endpoint}`, { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${endpoint} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { slug: string }).slug;
  };
  const categories = ["news", "maintenance", "event", "guide", "deck-recipe"];
  const articles: string[] = [];
  for (let i = 0; i < 40; i++) {
    // Lengths from a short notice to a 10,000-character guide.
    const content = longArticle(cardIds.slice(i * 7, i * 7 + 20)).slice(0, 500 + ((i * 2371) % 9500));
    articles.push(await post("/api/admin/articles", { title: `攻略記事 ${i + 1}`, category: categories[i % categories.length], content, isPublic: true }));
  }
  const decks: string[] = [];
  for (let i = 0; i < 30; i++) {
    const description = `## 使い方\n**デッキ${i + 1}**の回し方。\n[[card:${DECK_CARDS[i % DECK_CARDS.length].cardId}]]\n- 序盤は展開\n- 終盤はサイドを詰める\n`.repeat(3);
    decks.push(await post("/api/admin/decks", { name: `環境デッキ${i + 1}`, tier: (i % 4) + 1, category: "deck-recipe", energyTypes: ["electric"], isPublic: true, slug: `capacity-${i + 1}`, description, cards: DECK_CARDS, relatedDeckIds: [] }));
  }
  return { articles, decks };
}

// ---------------------------------------------------------------------------------------------
// The open-loop HTTP driver.

type Sample = { kind: KindName; ms: number; ok: boolean };
type Request = { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string; expect: number[] };

const BROWSER = { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", "accept-language": "ja,en;q=0.8", "accept-encoding": "gzip, deflate, br" };
const DOCUMENT = { ...BROWSER, accept: "text/html,application/xhtml+xml" };

/** The request a kind stands for, with its data drawn at random (`r` in [0, 1)). */
function requestFor(kind: Kind, fixture: Fixture, online: number, origin: string, r: () => number, counters: { posts: number }): Request {
  const player = fixture.players[Math.floor(r() * online)];
  const signedIn = { ...DOCUMENT, cookie: player.cookie };
  const json = { ...BROWSER, accept: "application/json", "content-type": "application/json", origin, cookie: player.cookie };
  const offer = () => fixture.offers[skewed(fixture.offers.length, r(), 1.5)];
  switch (kind.name) {
    case "card page":
      return { method: "GET", path: `/cards/${fixture.cardIds[skewed(fixture.cardIds.length, r())]}`, headers: DOCUMENT, expect: [200] };
    case "offer page (visitor)":
      return { method: "GET", path: `/trades/${offer().id}`, headers: DOCUMENT, expect: [200] };
    case "deck page":
      return { method: "GET", path: `/deck-recipes/${fixture.decks[skewed(fixture.decks.length, r())]}`, headers: DOCUMENT, expect: [200] };
    case "article":
      return { method: "GET", path: `/articles/${fixture.articles[skewed(fixture.articles.length, r())]}`, headers: DOCUMENT, expect: [200] };
    case "board":
      return { method: "GET", path: "/trades", headers: signedIn, expect: [200] };
    case "マッチ":
      return { method: "GET", path: "/trades?view=matches", headers: signedIn, expect: [200] };
    case "offer page (player)":
      return { method: "GET", path: `/trades/${offer().id}`, headers: signedIn, expect: [200] };
    case "/notifications":
      return { method: "GET", path: "/notifications", headers: signedIn, expect: [200] };
    case "/collection":
      return { method: "GET", path: "/collection", headers: signedIn, expect: [200] };
    case "bell count":
      return { method: "GET", path: "/api/notifications/count", headers: { ...json, "content-type": "" }, expect: [200] };
    case "analytics hit": {
      const signedInHit = r() < PLAYER_HIT_SHARE;
      const page = `/cards/${fixture.cardIds[skewed(fixture.cardIds.length, r())]}`;
      const body = JSON.stringify({ t: "pv", u: page, r: signedInHit ? undefined : "https://www.google.com/", w: 390 });
      return { method: "POST", path: "/api/event", headers: { ...BROWSER, "content-type": "text/plain;charset=UTF-8", origin, ...(signedInHit ? { cookie: player.cookie } : {}) }, body, expect: [204] };
    }
    case "collection count": {
      const changes = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({ cardId: fixture.cardIds[Math.floor(r() * fixture.cardIds.length)], count: Math.floor(r() * 4) }));
      return { method: "POST", path: "/api/collection/counts", headers: json, body: JSON.stringify({ changes }), expect: [200] };
    }
    case "want-list change": {
      const cardId = fixture.tradeable[Math.floor(r() * fixture.tradeable.length)];
      const intent = r() < 0.6 ? "add" : "remove";
      // The hydrated chip's fetcher: fields in the query, answered inline.
      return { method: "POST", path: `/wanted-cards.data?cardId=${encodeURIComponent(cardId)}&intent=${intent}&answer=inline`, headers: { ...json, "content-type": "application/x-www-form-urlencoded" }, body: "", expect: [200] };
    }
    case "post offer": {
      // Players take turns (at most 5 open offers and 10 posts an hour each); an offer that is on the board already is a valid one.
      const poster = fixture.players[counters.posts++ % fixture.players.length];
      const like = fixture.offers[Math.floor(r() * fixture.offers.length)];
      return { method: "POST", path: "/api/trades", headers: { ...json, cookie: poster.cookie }, body: JSON.stringify({ give: like.give, want: like.want, comment: "よろしくお願いします" }), expect: [201] };
    }
    case "交渉する":
      return { method: "POST", path: `/api/trades/${offer().id}`, headers: json, body: JSON.stringify({ action: "respond" }), expect: [200] };
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** An unexpected answer's body as text, decompressed when the server compressed it (a cut-off body shows what could be read). */
function readable(body: Buffer, encoding: string | undefined): string {
  const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    if (encoding === "br") return zlib.brotliDecompressSync(body, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString("utf8");
    if (encoding === "gzip") return zlib.gunzipSync(body, options).toString("utf8");
    if (encoding === "deflate") return zlib.inflateSync(body, options).toString("utf8");
  } catch {
    return `(${encoding} body that could not be read)`;
  }
  return body.toString("utf8");
}

/** Sends one request and calls back with its status (0 for a network error or a timeout). */
function send(url: URL, request: Request, done: (status: number, detail: string) => void): void {
  const headers = { ...request.headers };
  for (const [k, v] of Object.entries(headers)) if (!v) delete headers[k];
  const req = http.request({ host: url.hostname, port: url.port, path: request.path, method: request.method, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => {
      if (res.statusCode && !request.expect.includes(res.statusCode) && chunks.length < 4) chunks.push(c);
    });
    res.on("end", () => done(res.statusCode ?? 0, readable(Buffer.concat(chunks), res.headers["content-encoding"]).slice(0, 160)));
    res.on("error", (e) => done(0, e.message));
  });
  req.on("timeout", () => req.destroy(new Error("timeout")));
  req.on("error", (e) => done(0, e.message));
  if (request.body !== undefined) req.end(request.body);
  else req.end();
}


/**
 * Offers `rate` HTTP requests a second for `seconds` (Poisson arrivals), never waiting for an answer
 * before sending the next, and measures each from the time it was due.
 */
async function openLoop(base: string, rate: number, seconds: number, fixture: Fixture, online: number, seed: number, counters: { posts: number }) {
  const url = new URL(base);
  const r = prng(seed);
  const pick = kindPicker();
  const samples: Sample[] = [];
  const failures = new Map<string, number>();
  let pending = 0;
  let lagMax = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = start - Math.log(1 - r()) * (1000 / rate);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (due <= now && due < end) {
        const scheduled = due;
        lagMax = Math.max(lagMax, now - scheduled);
        const kind = pick(r());
        const request = requestFor(kind, fixture, online, base, r, counters);
        pending++;
        send(url, request, (status, detail) => {
          pending--;
          const ok = request.expect.includes(status);
          samples.push({ kind: kind.name, ms: performance.now() - scheduled, ok });
          if (!ok) {
            const key = `${kind.name}: ${status || "no answer"} ${detail.replace(/\s+/g, " ")}`;
            failures.set(key, (failures.get(key) ?? 0) + 1);
          }
        });
        due += -Math.log(1 - r()) * (1000 / rate);
      }
      if (due >= end) return resolve();
      setTimeout(tick, Math.max(0, Math.min(5, due - performance.now())));
    };
    tick();
  });
  const drainUntil = performance.now() + REQUEST_TIMEOUT_MS + 2000;
  while (pending > 0 && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50));
  return { samples, failures, unanswered: pending, lagMax };
}

// ---------------------------------------------------------------------------------------------
// CPU: clock ticks of the server processes, of this database's PostgreSQL backends and of the load generator.

function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - cpu[3] - cpu[4], total };
}

/** PostgreSQL backend pids serving the bench's database (its connection pools), read from pg_stat_activity. */
async function backendPids(admin: pg.Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [database]);
  return rows.map((r) => r.pid);
}

async function watchCpu(admin: pg.Client, database: string, servers: () => number[], load: () => number[]) {
  const startPg = new Map((await backendPids(admin, database)).map((pid) => [pid, ticksOf(pid)]));
  const sum = (pids: number[]) => pids.reduce((a, pid) => a + ticksOf(pid), 0);
  const serverStart = sum(servers());
  // The chat clients may exit before the step's last answer: their ticks are read every 500 ms and the last reading counts.
  const loadStart = new Map(load().map((pid) => [pid, ticksOf(pid)]));
  const loadLast = new Map(loadStart);
  const readLoad = () => {
    for (const pid of loadStart.keys()) {
      const ticks = ticksOf(pid);
      if (ticks > 0) loadLast.set(pid, ticks);
    }
  };
  const sampler = setInterval(readLoad, 500);
  const machine = machineTicks();
  const t0 = Date.now();
  return async () => {
    clearInterval(sampler);
    readLoad();
    const seconds = (Date.now() - t0) / 1000;
    const pct = (ticks: number) => ticks / seconds; // ticks are 1/100 s: per second, % of one core
    // A backend that started during the step counts from 0; one that ended during it is missed (its pool keeps them open).
    const pgNow = await backendPids(admin, database);
    const pgTicks = pgNow.reduce((a, pid) => a + ticksOf(pid) - (startPg.get(pid) ?? 0), 0);
    const now = machineTicks();
    return {
      server: pct(sum(servers()) - serverStart),
      postgres: pct(pgTicks),
      load: pct([...loadStart.keys()].reduce((a, pid) => a + loadLast.get(pid)! - loadStart.get(pid)!, 0)),
      /** The whole machine, % of all its cores. */
      machine: ((now.busy - machine.busy) / Math.max(1, now.total - machine.total)) * 100,
      /** Everything else on the machine (other work sharing its cores), % of one core. */
      others: 0,
      seconds,
    };
  };
}

/**
 * Waits (at most QUIET_WAIT_MS) until, for two seconds running, processes other than ours take less
 * than BUSY_OTHERS % of a core: a step started while the machine runs other work measures the machine.
 */
async function waitForQuiet(admin: pg.Client, database: string, ours: () => number[]): Promise<number> {
  const until = Date.now() + QUIET_WAIT_MS;
  let quiet = 0;
  let others = 0;
  while (Date.now() < until) {
    const watch = await watchCpu(admin, database, ours, () => []);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const cpu = await watch();
    others = Math.max(0, cpu.machine * cpus - cpu.server - cpu.postgres);
    quiet = others < BUSY_OTHERS ? quiet + 1 : 0;
    if (quiet >= 2) break;
  }
  return others;
}

// ---------------------------------------------------------------------------------------------
// Steps.

/** `total`: the sum of the answers' latencies (ms). */
type KindStats = { n: number; p50: number; p99: number; errors: number; total: number };
type Step = {
  rate: number;
  players: number;
  people: number;
  kinds: Map<KindName, KindStats>;
  all: KindStats;
  chat: { sent: number; p50: number; p99: number; lost: number; duplicated: number; refused: number; retries: number };
  errors: number;
  failures: [string, number][];
  cpu: { server: number; postgres: number; load: number; machine: number; others: number; seconds: number };
  lagMax: number;
  /** The server's event-loop delay over the step (the worst instance): a stall of the process, not a queue of requests. */
  loopDelay: { p99: number; max: number };
  pass: boolean;
};

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const statsOf = (samples: Sample[]): KindStats => {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { n: samples.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: samples.filter((s) => !s.ok).length, total: sorted.reduce((a, b) => a + b, 0) };
};

type Target = { url: string; label: string; serverPids: () => number[]; /** Each server's Prometheus endpoint (its event-loop delay). */ metricsUrls: string[] };

async function runStep(target: Target, rate: number, fixture: Fixture, admin: pg.Client, database: string, seed: number, counters: { posts: number }, seconds = STEP_SECONDS): Promise<Step> {
  const population = populationAt(rate);
  const online = Math.min(fixture.players.length, Math.max(2, Math.round(population.players / 2) * 2));
  if (population.players > fixture.players.length) console.log(`  (only ${fixture.players.length} players seeded: ${population.players} wanted; raise BENCH_PLAYERS)`);
  const chat = forkChatClients({ people: fixture.players.slice(0, online), urls: [target.url], rate: population.chatRate, seconds, drainMs: 10_000, ackTimeoutMs: 10_000 });
  const deadline = (ms: number, what: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in ${ms / 1000} s`)), ms).unref());
  try {
    await Promise.race([chat.ready, chat.report.then(() => {}), deadline(180_000, "connecting the sockets")]);
    await waitForQuiet(admin, database, () => [...target.serverPids(), process.pid, chat.child.pid!]);
    // A scrape resets the servers' event-loop delay histogram: the one after the load reads the step's.
    await Promise.all(target.metricsUrls.map((url) => eventLoopDelay(url)));
    const watch = await watchCpu(admin, database, target.serverPids, () => [process.pid, chat.child.pid!]);
    chat.child.send({ type: "go" });
    const loop = await openLoop(target.url, population.httpRate, seconds, fixture, online, seed, counters);
    const delays = await Promise.all(target.metricsUrls.map((url) => eventLoopDelay(url)));
    const loopDelay = { p99: Math.max(...delays.map((d) => d.p99)), max: Math.max(...delays.map((d) => d.max)) };
    // CPU over the step's load (the chat clients are still alive: they drain before reporting).
    const cpu = await watch();
    cpu.others = Math.max(0, cpu.machine * cpus - cpu.server - cpu.postgres - cpu.load);
    const report = await Promise.race([chat.report, deadline(60_000, "the chat report")]);
    const kinds = new Map<KindName, KindStats>();
    for (const kind of KINDS) kinds.set(kind.name, statsOf(loop.samples.filter((s) => s.kind === kind.name)));
    const all = statsOf(loop.samples);
    const sorted = [...report.latencies].sort((a, b) => a - b);
    const chatStats = { sent: report.sent, p50: percentile(sorted, 50), p99: percentile(sorted, 99), lost: report.lost, duplicated: report.duplicated, refused: report.refused, retries: report.retries };
    const errors = all.errors + loop.unanswered + chatStats.lost + chatStats.duplicated + chatStats.refused + chatStats.retries + (report.acked < report.sent ? report.sent - report.acked : 0);
    const failures = [...loop.failures.entries()].sort((a, b) => b[1] - a[1]);
    const chatOk = !chatStats.sent || chatStats.p99 < P99_LIMIT_MS;
    return { rate, players: online, people: population.people, kinds, all, chat: chatStats, errors, failures, cpu, lagMax: loop.lagMax, loopDelay, pass: errors === 0 && all.p99 < P99_LIMIT_MS && chatOk };
  } finally {
    if (chat.child.exitCode === null) chat.child.kill("SIGKILL");
  }
}

const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");

function printStep(target: Target, s: Step): void {
  console.log(`\n[${target.label}] ${f1(s.rate)} req/s offered: ${s.players} players online with a socket, ${s.people} people in all; ${s.pass ? "PASS" : "FAIL"}`);
  console.log(`  ${"kind".padEnd(22)} ${"n".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`);
  for (const [name, k] of s.kinds) console.log(`  ${name.padEnd(22)} ${String(k.n).padStart(6)} ${f1(k.p50).padStart(8)} ${f1(k.p99).padStart(8)} ${String(k.errors).padStart(7)}${k.p99 >= P99_LIMIT_MS ? "  ← p99 over limit" : ""}`);
  console.log(`  ${"all HTTP".padEnd(22)} ${String(s.all.n).padStart(6)} ${f1(s.all.p50).padStart(8)} ${f1(s.all.p99).padStart(8)} ${String(s.all.errors).padStart(7)}`);
  console.log(`  ${"chat delivery".padEnd(22)} ${String(s.chat.sent).padStart(6)} ${f1(s.chat.p50).padStart(8)} ${f1(s.chat.p99).padStart(8)} ${String(s.chat.lost + s.chat.refused + s.chat.retries + s.chat.duplicated).padStart(7)}  (lost ${s.chat.lost}, duplicated ${s.chat.duplicated}, refused ${s.chat.refused}, ack timeouts ${s.chat.retries})`);
  console.log(`  CPU (% of one core): server ${f0(s.cpu.server)}%, PostgreSQL backends ${f0(s.cpu.postgres)}%, load generator ${f0(s.cpu.load)}%, other processes ${f0(s.cpu.others)}%; machine busy ${f0(s.cpu.machine)}% of its ${cpus} cores; driver lag max ${f1(s.lagMax)} ms; server event-loop delay p99 ${f1(s.loopDelay.p99)} ms, max ${f1(s.loopDelay.max)} ms`);
  const answered = s.all.n + s.chat.sent;
  if (answered) console.log(`  CPU per request (HTTP answer or chat message): server ${f1(perRequest(s, s.cpu.server))} ms, PostgreSQL ${f1(perRequest(s, s.cpu.postgres))} ms`);
  if (s.cpu.others > BUSY_OTHERS) console.log(`  note: other processes took ${f0(s.cpu.others)}% of a core during this step: the machine was not ours, latencies include waiting for a core`);
  for (const [what, n] of s.failures.slice(0, 5)) console.log(`  error ×${n}: ${what}`);
}

/** CPU ms per answered request (HTTP answer or chat message) from a step's % of one core. */
const perRequest = (s: Step, pct: number) => (pct * 10 * s.cpu.seconds) / Math.max(1, s.all.n + s.chat.sent);

function printSummary(label: string, steps: Step[]): Step | undefined {
  console.log(`\n${label}: steps in order`);
  console.log(`| req/s | players | people | HTTP p50 | HTTP p99 | slowest kind (p99) | chat p99 | errors | server CPU | PG CPU | server ms/req | PG ms/req | load CPU | others CPU | server loop delay max | |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`);
  for (const s of steps) {
    const slowest = [...s.kinds.entries()].filter(([, k]) => k.n > 0).sort((a, b) => b[1].p99 - a[1].p99)[0];
    console.log(
      `| ${f1(s.rate)} | ${s.players} | ${s.people} | ${f1(s.all.p50)} | ${f1(s.all.p99)} | ${slowest ? `${slowest[0]} ${f0(slowest[1].p99)}` : "–"} | ${f1(s.chat.p99)} | ${s.errors} | ${f0(s.cpu.server)}% | ${f0(s.cpu.postgres)}% | ${f1(perRequest(s, s.cpu.server))} | ${f1(perRequest(s, s.cpu.postgres))} | ${f0(s.cpu.load)}% | ${f0(s.cpu.others)}% | ${f0(s.loopDelay.max)} ms | ${s.pass ? "pass" : "FAIL"} |`,
    );
  }
  const best = steps.filter((s) => s.pass).sort((a, b) => b.rate - a.rate)[0];
  if (best) console.log(`capacity (${label}): ${f1(best.rate)} req/s at p99 < ${P99_LIMIT_MS} ms with no errors = ${f0((best.rate * 60) / PER_PERSON_MINUTE)} people served at peak (${best.players} signed-in players with a socket + ${f0(best.players * VISITORS_PER_PLAYER)} visitors)`);
  else console.log(`capacity (${label}): not reached (even ${f1(steps[0]?.rate ?? START_RATE)} req/s failed)`);
  // Where the time goes: each kind's share of all answer time at the best step (the lowest one when none passed),
  // and the kinds over the limit at the lowest failing step above it.
  const shown = best ?? [...steps].sort((a, b) => a.rate - b.rate)[0];
  if (shown) {
    const shares = [...shown.kinds.entries()].filter(([, k]) => k.n > 0).sort((a, b) => b[1].total - a[1].total);
    console.log(`answer time by kind at ${f1(shown.rate)} req/s (share of the sum of latencies, p50): ${shares.slice(0, 8).map(([name, k]) => `${name} ${f0((k.total / shown.all.total) * 100)}% (${f0(k.p50)} ms)`).join(", ")}`);
  }
  const firstBad = steps.filter((s) => !s.pass && s.rate > (best?.rate ?? 0)).sort((a, b) => a.rate - b.rate)[0];
  if (firstBad) {
    const over = [...firstBad.kinds.entries()].filter(([, k]) => k.p99 >= P99_LIMIT_MS).map(([name, k]) => `${name} ${f0(k.p99)} ms`);
    console.log(`over ${P99_LIMIT_MS} ms at ${f1(firstBad.rate)} req/s: ${over.length ? over.join(", ") : "no HTTP kind"}${firstBad.chat.p99 >= P99_LIMIT_MS ? `, chat delivery ${f0(firstBad.chat.p99)} ms` : ""}${firstBad.errors ? `; ${firstBad.errors} errors` : ""}`);
  }
  const busy = steps.filter((s) => s.cpu.others > BUSY_OTHERS);
  if (busy.length) console.log(`note: in ${busy.length} of ${steps.length} steps other processes took more than ${BUSY_OTHERS}% of a core (up to ${f0(Math.max(...busy.map((s) => s.cpu.others)))}%): on a machine of our own the capacity is higher; the CPU ms per request is the figure to compare between runs`);
  return best;
}

/**
 * CPU per request kind, one request at a time (BENCH_CALIBRATE_SECONDS, default 2, per kind, at
 * least 20 requests): server ticks and this database's backend ticks over the answers. CPU time is
 * what a busy machine changes least (waiting for a core is not in it), so this table, weighted by
 * the mix, says which kinds spend the capacity even when the latencies say more about the machine.
 * Signed-out pages are drawn as in the mix, so some come from the page cache.
 */
async function calibrate(target: Target, fixture: Fixture, admin: pg.Client, database: string, counters: { posts: number }): Promise<void> {
  const url = new URL(target.url);
  const r = prng(4242);
  const online = Math.min(fixture.players.length, 200);
  const rows: { kind: Kind; server: number; postgres: number; n: number }[] = [];
  for (const kind of KINDS) {
    const watch = await watchCpu(admin, database, target.serverPids, () => []);
    const until = performance.now() + CALIBRATE_SECONDS * 1000;
    let n = 0;
    while (n < 20 || performance.now() < until) {
      const request = requestFor(kind, fixture, online, target.url, r, counters);
      const [status, detail] = await new Promise<[number, string]>((resolve) => send(url, request, (answer, body) => resolve([answer, body])));
      if (!request.expect.includes(status)) throw new Error(`calibrating ${kind.name}: ${request.method} ${request.path} answered ${status} ${detail}`);
      n++;
    }
    const cpu = await watch();
    rows.push({ kind, n, server: (cpu.server * 10 * cpu.seconds) / n, postgres: (cpu.postgres * 10 * cpu.seconds) / n });
  }
  const total = KINDS.reduce((a, k) => a + k.perMinute, 0);
  const mixServer = rows.reduce((a, row) => a + row.kind.perMinute * row.server, 0);
  const mixPg = rows.reduce((a, row) => a + row.kind.perMinute * row.postgres, 0);
  console.log(`\n[${target.label}] CPU per request kind, one request at a time (${CALIBRATE_SECONDS} s a kind), and each kind's share of the mix's CPU`);
  console.log(`| kind | share of requests | answers | server ms/req | PG ms/req | share of server CPU | share of PG CPU |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const row of [...rows].sort((a, b) => b.kind.perMinute * b.server - a.kind.perMinute * a.server)) {
    console.log(`| ${row.kind.name} | ${f1((row.kind.perMinute / total) * 100)}% | ${row.n} | ${f1(row.server)} | ${f1(row.postgres)} | ${f0(((row.kind.perMinute * row.server) / mixServer) * 100)}% | ${f0(((row.kind.perMinute * row.postgres) / mixPg) * 100)}% |`);
  }
  console.log(`mix average per HTTP request: server ${f1(mixServer / total)} ms, PostgreSQL ${f1(mixPg / total)} ms (chat messages not included)`);
}

/**
 * Raises the rate by STEP_FACTOR until a step fails, then runs REFINE steps between the last good
 * rate and the first bad one (geometric middles); a first step that fails is retried lower.
 */
async function ladder(target: Target, fixture: Fixture, admin: pg.Client, database: string, startRate: number, counters: { posts: number }): Promise<Step[]> {
  const steps: Step[] = [];
  let good = 0;
  let bad = Infinity;
  let rate = startRate;
  let refinements = 0;
  // Warm-up, not counted: code paths compiled, pools and caches filled, every instance reached.
  const warm = await runStep(target, startRate / 2, fixture, admin, database, 1000, counters, WARMUP_SECONDS);
  console.log(`\n[${target.label}] warm-up (not counted): ${f1(warm.rate)} req/s for ${WARMUP_SECONDS} s, HTTP p99 ${f1(warm.all.p99)} ms, ${warm.errors} errors`);
  for (const [what, n] of warm.failures.slice(0, 5)) console.log(`  error ×${n}: ${what}`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  while (!overBudget()) {
    let step = await runStep(target, rate, fixture, admin, database, steps.length + 1, counters);
    steps.push(step);
    printStep(target, step);
    // On a small shared machine one stall of another process fails a 20-second step: a failed
    // rate is run once more (both rows are shown), and the second run decides.
    if (!step.pass && CONFIRM && !overBudget()) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      step = await runStep(target, rate, fixture, admin, database, steps.length + 1, counters);
      steps.push(step);
      printStep(target, step);
    }
    if (step.pass) good = Math.max(good, rate);
    else bad = Math.min(bad, rate);
    if (bad === Infinity) rate *= STEP_FACTOR;
    else if (good === 0) {
      if (rate / STEP_FACTOR < 2) break;
      rate /= STEP_FACTOR;
    } else if (refinements++ < REFINE) rate = Math.sqrt(good * bad);
    else break;
    // Let queues and pools settle between steps.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  if (overBudget()) console.log(`\n(time budget of ${BUDGET_MS / 60_000} min reached: climbing stopped)`);
  return steps;
}

// ---------------------------------------------------------------------------------------------
// The run.

const redis = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
redis.on("error", () => {});
const redisUp = await redis.connect().then(
  () => true,
  () => false,
);
if (redisUp) await redis.quit();
const created = await createBenchDatabase();
if (!created || !redisUp) {
  console.log(`bench:capacity needs PostgreSQL (${created ? "ok" : "not reachable"}) and Redis at ${REDIS_URL} (${redisUp ? "ok" : "not reachable"}).`);
  await created?.drop();
  process.exit(1);
}
const databaseName = new URL(created.url).pathname.slice(1);
const dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-bench-capacity-"));
const admin = new pg.Client({ connectionString: created.url });
const results: { label: string; best?: Step }[] = [];
let exitCode = 0;
const servers: RunningServer[] = [];
let nginx: RunningNginx | undefined;
const stopAll = async () => {
  await nginx?.stop();
  nginx = undefined;
  await Promise.all(servers.splice(0).map((s) => s.stop()));
};
try {
  const seeded = await seedData(created.url);
  await admin.connect();
  const pgVersion = (await admin.query<{ server_version: string }>("show server_version")).rows[0].server_version;
  const env = { DATABASE_URL: created.url, REDIS_URL, BETTER_AUTH_SECRET: SECRET, SEED_CATALOGUE: "never", LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email, DATA_DIR: dataDir };
  console.log(
    `mix: ${SLICE_PER_MINUTE.toFixed(2)} requests a minute per signed-in player and their ${VISITORS_PER_PLAYER} visitors (${PER_PERSON_MINUTE.toFixed(2)} per person), chat ${CHAT_PER_PLAYER_MINUTE} messages a minute per player; steps of ${STEP_SECONDS} s from ${START_RATE} req/s ×${STEP_FACTOR}, p99 limit ${P99_LIMIT_MS} ms; PostgreSQL ${pgVersion}, Redis on every instance`,
  );
  let fixture: Fixture | undefined;
  const counters = { posts: 0 };
  let oneInstanceCapacity: number | undefined;
  for (const count of INSTANCE_COUNTS) {
    if (overBudget()) break;
    if (count === 2 && !nginxBinary()) {
      console.log("\nnginx is not installed (apt-get install nginx): the two-instance part is skipped.");
      continue;
    }
    if (count === 1) {
      for (const build of BUILDS) {
        if (overBudget()) break;
        const label = BUILDS.length > 1 ? `one instance [${build}]` : "one instance";
        const metricsPort = await freePort();
        const server = await startServer({ ...env, BUILD_DIR: build, METRICS_PORT: String(metricsPort) }, { flags: SERVER_FLAGS });
        servers.push(server);
        console.log(`\n${label}: server mode ${server.mode}, ${server.url}`);
        fixture ??= { ...seeded, ...(await seedContent(server, seeded.cardIds)) };
        const target = { url: server.url, label, serverPids: () => [server.process.pid!], metricsUrls: [`http://127.0.0.1:${metricsPort}/metrics`] };
        const steps = await ladder(target, fixture, admin, databaseName, START_RATE, counters);
        const best = printSummary(label, steps);
        oneInstanceCapacity = best?.rate;
        if (CALIBRATE_SECONDS > 0) await calibrate(target, fixture, admin, databaseName, counters);
        results.push({ label, best });
        await stopAll();
      }
    } else {
      // Both instances take SITE_URL as nginx's address: the origin browsers (and the bench) send.
      const port = await freePort();
      const site = `http://127.0.0.1:${port}`;
      const metricsPorts = [await freePort(), await freePort()];
      for (const metricsPort of metricsPorts) servers.push(await startServer({ ...env, BUILD_DIR: BUILDS.at(-1) ?? "build", SITE_URL: site, METRICS_PORT: String(metricsPort) }, { flags: SERVER_FLAGS }));
      nginx = await startNginx(
        servers.map((s) => s.port),
        port,
      );
      console.log(`\ntwo instances behind nginx (${site} → ${servers.map((s) => s.port).join(", ")}, round robin, Socket.IO over the Redis adapter)`);
      if (!fixture) fixture = { ...seeded, ...(await seedContent({ ...servers[0], url: site }, seeded.cardIds)) };
      const pids = servers.map((s) => s.process.pid!);
      const steps = await ladder({ url: site, label: "two instances", serverPids: () => pids, metricsUrls: metricsPorts.map((p) => `http://127.0.0.1:${p}/metrics`) }, fixture, admin, databaseName, oneInstanceCapacity ?? START_RATE, counters);
      results.push({ label: "two instances behind nginx", best: printSummary("two instances behind nginx", steps) });
    }
    await stopAll();
  }
  console.log("\nCapacity (p99 < " + P99_LIMIT_MS + " ms, no errors):");
  for (const r of results) console.log(`  ${r.label.padEnd(28)} ${r.best ? `${f1(r.best.rate).padStart(7)} req/s  ${f0((r.best.rate * 60) / PER_PERSON_MINUTE).padStart(6)} people (${r.best.players} signed-in players)` : "not reached"}`);
  const [one, two] = [results.filter((r) => r.label.startsWith("one instance")).at(-1)?.best, results.find((r) => r.label.startsWith("two"))?.best];
  if (one && two) console.log(`  two instances / one instance: ${(two.rate / one.rate).toFixed(2)}×`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await stopAll();
  agent.destroy();
  await admin.end().catch(() => {});
  await created.drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\ndone in ${((Date.now() - began) / 60_000).toFixed(1)} min; database dropped`);
}
process.exit(exitCode);
