import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import * as notificationCount from "#app/routes/api.notifications.count.ts";
import * as offerRoute from "#app/routes/api.trades.$id.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

// PostgreSQL ending the app's connections (a restart, a failover, a proxy restart,
// idle_in_transaction_session_timeout) while requests run: the requests on those connections may
// fail, the process must live and the next request succeed. Before, a connection checked out by a
// transaction emitted an 'error' nobody listened to, which crashed the process (vitest reports it
// as an unhandled error and fails the run); and a transaction whose BEGIN met a dead connection
// never gave its client back, so each kill could shrink the pool for good.
const onPostgres = process.env.TEST_DB === "postgres";
const SITE = "http://torepoke.test";
const SECRET = randomBytes(32).toString("base64url");
const WORKERS = 8;
const POOL_SIZE = 5;
const KILLS = 3;

type Trader = { offerId: string; cookie: string };
/** One request of the load: when it ran (performance.now()) and what it answered. */
type Outcome = { what: string; start: number; end: number; answer: number | string };
type KillWindow = { start: number; end: number };

let database: TestDatabase;
let app: Database;
let server: Awaited<ReturnType<typeof startHttpApp>>;
let traders: Trader[];
let offerBody: (comment: string) => unknown;
const logLines: Record<string, unknown>[] = [];

// pg_terminate_backend ends a PostgreSQL server process; PGlite runs inside this process on one
// connection, so there is no backend to end and nothing to test there.
describe.skipIf(!onPostgres)("PostgreSQL ending the app's connections under load", () => {
  beforeAll(async () => {
    registerFeatureLinks();
    database = await createTestDatabase();
    await seedCatalogue(database.db);
    const [a, b] = await catalogueCards(database.db, "◆◆", 2);
    offerBody = (comment) => ({ give: [{ cardId: a.id, count: 1 }], want: [{ cardId: b.id, count: 1 }], comment });
    traders = [];
    for (let i = 0; i < WORKERS; i++) {
      const user = await createUser(database.db);
      const { id } = await createOffer(database.db, user.id, OfferInputSchema.parse(offerBody("")));
      traders.push({ offerId: id, cookie: await createSessionCookie(database.db, user.id, SECRET) });
    }
    // The app's own pool, as the server opens it: fewer connections than concurrent requests, so
    // at a kill most of them are checked out by a request.
    const log = createLogger("warn", (line) => logLines.push(JSON.parse(line) as Record<string, unknown>));
    app = await openDatabase({ kind: "postgres", url: database.url as string, poolSize: POOL_SIZE, log });
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-connection-loss-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
    server = await startHttpApp({ env, database: app, log, routes: { "api/trades/:id": offerRoute, "api/notifications/count": notificationCount } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await database?.close();
  });

  async function call(trader: Trader, method: "GET" | "PATCH", pathname: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${server.base}${pathname}`, {
      method,
      headers: { host: new URL(SITE).host, origin: SITE, cookie: trader.cookie, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  }

  /** A signed-in player's requests, one after another: an edit (two transactions), a read of the offer, the bell's count. */
  async function play(trader: Trader, outcomes: Outcome[], stopped: () => boolean): Promise<void> {
    for (let i = 0; !stopped(); i++) {
      const what = ["PATCH offer", "GET offer", "GET count"][i % 3];
      const start = performance.now();
      let answer: number | string;
      try {
        if (what === "PATCH offer") answer = (await call(trader, "PATCH", `/api/trades/${trader.offerId}`, offerBody(`edit ${i}`))).status;
        else if (what === "GET offer") answer = (await call(trader, "GET", `/api/trades/${trader.offerId}`)).status;
        else answer = (await call(trader, "GET", "/api/notifications/count")).status;
      } catch (err) {
        answer = err instanceof Error ? err.message : String(err);
      }
      outcomes.push({ what, start, end: performance.now(), answer });
    }
  }

  it("terminating every backend of the database three times mid-load fails only requests in flight; the process lives and answers again", async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const outcomes: Outcome[] = [];
    const windows: KillWindow[] = [];
    let stop = false;
    const players = traders.map((trader) => play(trader, outcomes, () => stop));
    const succeededAfter = (at: number) => outcomes.filter((o) => o.start >= at && o.answer === 200).length;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        // The load is running (again) before each kill.
        const since = windows.at(-1)?.end ?? 0;
        await until(() => succeededAfter(since) >= 20, `requests to succeed before kill ${kill + 1}`, 20_000);
        // A transaction open across the kill, as a slow request's is: its connection is checked
        // out and idle in transaction when PostgreSQL ends it.
        let resume!: () => void;
        const resumed = new Promise<void>((resolve) => (resume = resolve));
        let opened!: () => void;
        const open = new Promise<void>((resolve) => (opened = resolve));
        const held = app.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            opened();
            await resumed;
            await tx.execute(sql`select 1`);
          })
          .then(
            () => "committed",
            () => "failed",
          );
        await open;

        const start = performance.now();
        const ended = await admin.query<{ pid: number; ended: boolean }>(
          "select pid, pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [database.name],
        );
        const pids = ended.rows.filter((row) => row.ended).map((row) => row.pid);
        expect(pids.length).toBeGreaterThan(0);
        await until(
          async () => (await admin.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where pid = any($1)", [pids])).rows[0].n === 0,
          `the terminated backends to exit (kill ${kill + 1})`,
        );
        windows.push({ start, end: performance.now() });
        resume();
        expect(await held).toBe("failed");
      }
      // Requests succeed again after the last kill, on new connections.
      const last = windows.at(-1)!.end;
      await until(() => succeededAfter(last) >= 20, "requests to succeed after the last kill", 20_000);
    } finally {
      stop = true;
      await Promise.all(players);
      await admin.end();
    }

    // A request failed only if it was in flight while backends were being terminated.
    const failures = outcomes.filter((o) => o.answer !== 200);
    const inFlight = (o: Outcome) => windows.some((w) => o.start <= w.end && o.end >= w.start);
    expect(failures.filter((o) => !inFlight(o))).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(failures.length);

    // No slot of the pool was lost for good: as many transactions at once as it has connections all begin.
    let begun = 0;
    let together!: () => void;
    const everyone = new Promise<void>((resolve) => (together = resolve));
    const transactions = Array.from({ length: POOL_SIZE }, () =>
      app.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        begun++;
        await everyone;
      }),
    );
    try {
      await until(() => begun === POOL_SIZE, `${POOL_SIZE} transactions at once on a pool of ${POOL_SIZE}`);
    } finally {
      together();
    }
    await Promise.all(transactions);

    // The operator hears of each lost connection; the process is still up and answers normally.
    const lost = logLines.filter((line) => line.msg === "database connection lost");
    expect(lost.length).toBeGreaterThanOrEqual(KILLS);
    expect(lost).toContainEqual(expect.objectContaining({ level: "warn", pool: "requests", code: "57P01" }));
    const health = await fetch(`${server.base}/healthz`, { headers: { host: new URL(SITE).host } });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", db: "ok" });
    const [first] = traders;
    expect((await call(first, "PATCH", `/api/trades/${first.offerId}`, offerBody("after the kills"))).status).toBe(200);
    const offer = await call(first, "GET", `/api/trades/${first.offerId}`);
    expect(offer).toMatchObject({ status: 200, body: { offer: { comment: "after the kills" } } });
  }, 90_000);
});
