// Shared pieces of the benchmarks: autocannon runs, a bare node:http baseline, a fresh
// PostgreSQL database per run, and table printing. Everything targets 127.0.0.1 only and every
// run is bounded in time.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase, type Database, type Db } from "#app/db/client.server.ts";
import { sessions } from "#app/db/schema/index.ts";
import { SESSION_EXPIRES_IN_S } from "#app/features/users/auth.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import { sessionCookieFor } from "#tests/support/chat-factories.ts";
import { freePort } from "#tests/support/server.ts";

// Benches call the services in their own process, as the server does: the features meet first.
registerFeatureLinks();

/**
 * Sent by the "(cache miss)" cases: any cookie but the language one keeps a request away from the
 * page cache of signed-out visitors (server/page-cache.ts), so the page or API is computed anew.
 */
export const CACHE_MISS: Record<string, string> = { cookie: "bench=no-page-cache" };

export type Measurement = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers in all. */
  requests: number;
  /** Answers per HTTP status ("200": 1234, "429": 5). */
  statuses: Record<string, number>;
};

/** What one request of a run changes of the url's: its path, method, body, and headers over the run's. */
export type RequestChange = { path?: string; method?: string; headers?: Record<string, string>; body?: string };

export async function measure(
  name: string,
  url: string,
  options: {
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** A path (and query) for each request in turn, in place of the url's: pages no cache has kept. */
    nextPath?: () => string;
    /** Each request in turn, when more than its path changes (another player's cookie, another body). */
    nextRequest?: () => RequestChange;
  } = {},
): Promise<Measurement> {
  const { nextPath } = options;
  const next: (() => RequestChange) | undefined = options.nextRequest ?? (nextPath ? () => ({ path: nextPath() }) : undefined);
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.duration ?? 10,
    headers: options.headers,
    requests: next
      ? [
          {
            setupRequest: (request) => {
              const change = next();
              return { ...request, ...change, headers: { ...request.headers, ...change.headers } };
            },
          },
        ]
      : undefined,
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count])),
  };
}

/** A bare node:http server in its own process: the floor any real page is compared with. */
export async function startBareServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const code = `require("node:http").createServer((q, s) => { s.setHeader("content-type", "application/json"); s.end('{"status":"ok"}'); }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child: ChildProcess = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh PostgreSQL database for one run, or null when no server answers. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `torepoke_bench_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export type BenchTarget = {
  label: string;
  /** Environment for the server under test. */
  env: Record<string, string>;
  /** The same database, opened in the bench process (for seeding and direct calls). */
  open(): Promise<Database>;
  cleanup(): Promise<void>;
};

/** PGlite in a fresh data directory as a bench target (the server and the bench process share it). */
export function pgliteTarget(prefix: string): BenchTarget {
  const dir = mkdtempSync(path.join(tmpdir(), `torepoke-bench-${prefix}-`));
  return {
    label: "pglite",
    env: { DATA_DIR: dir },
    open: () => openDatabase({ kind: "pglite", dataDir: path.join(dir, "db") }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The session cookie of an account that exists, signed in through the e-mail endpoint. */
export async function signInAs(url: string, account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A fresh PostgreSQL database as a bench target, or null (and a line saying so) without a server. */
export async function postgresTarget(): Promise<BenchTarget | null> {
  const created = await createBenchDatabase();
  if (!created) {
    console.log("PostgreSQL not reachable: PGlite only.");
    return null;
  }
  return {
    label: "postgres",
    env: { DATABASE_URL: created.url },
    open: () => openDatabase({ kind: "postgres", url: created.url }),
    cleanup: created.drop,
  };
}

export function printTable(title: string, rows: Measurement[], baseline: Measurement): void {
  console.log(`\n${title}`);
  console.log("target".padEnd(34), "req/s".padStart(9), "p50 ms".padStart(8), "p99 ms".padStart(8), "×rps vs base".padStart(13), "×p99 vs base".padStart(13), "errors".padStart(7));
  for (const r of rows) {
    console.log(
      r.name.padEnd(34),
      r.rps.toFixed(0).padStart(9),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      (r.rps / baseline.rps).toFixed(2).padStart(13),
      (r.p99 / Math.max(baseline.p99, 0.5)).toFixed(2).padStart(13),
      String(r.errors + r.non2xx).padStart(7),
    );
  }
}

/**
 * A signed-in session for each of these users, written straight into `sessions` (signing in
 * thousands through the password endpoint would spend the run hashing passwords), and each one's
 * cookie signed with `secret`, the BETTER_AUTH_SECRET the server under test is given. Fresh as a
 * sign-in leaves it (expiring in Better Auth's 30 days, so the first request does not extend it)
 * unless `expiresAt` says otherwise.
 */
export async function insertSessions(db: Db, userIds: readonly string[], secret: string, options: { expiresAt?: Date } = {}): Promise<string[]> {
  const run = randomBytes(4).toString("hex");
  const expiresAt = options.expiresAt ?? new Date(Date.now() + SESSION_EXPIRES_IN_S * 1000);
  const tokens = userIds.map(() => randomBytes(24).toString("base64url"));
  for (let from = 0; from < userIds.length; from += 500) {
    const rows = userIds.slice(from, from + 500).map((userId, i) => ({ id: `bs_${run}_${from + i}`, token: tokens[from + i], userId, expiresAt }));
    await db.insert(sessions).values(rows);
  }
  return tokens.map((token) => sessionCookieFor(token, secret));
}

/** A process's resident set now and at its peak (VmRSS, VmHWM of /proc/<pid>/status), in bytes; 0 once it is gone. */
export function processMemory(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** Clock ticks (1/100 s) a process has run, user + system; 0 once it is gone. */
export function ticksOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The server's event-loop delay since the last scrape (prom-client resets it at each one). */
export async function eventLoopDelay(metricsUrl: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) })).text();
  const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read("nodejs_eventloop_lag_p99_seconds"), max: read("nodejs_eventloop_lag_max_seconds") };
}
