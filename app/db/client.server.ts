import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { INSTALL_DIR } from "#app/lib/install-dir.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import * as schema from "#app/db/schema/index.ts";

export type Schema = typeof schema;
/** The one database type services take: PGlite and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  /**
   * For work that runs behind the requests (the outbox's deliveries): on PostgreSQL its own small
   * pool, so however much of that work waits, it never holds the connections a request or a chat
   * message needs. PGlite has one connection: the same as `db`.
   */
  background: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
  ping(): Promise<void>;
  /**
   * PGlite in a data folder only: a consistent copy of that folder as a tar (features/backups).
   * Queries wait while it is taken; what it holds is what a crash at that moment would leave,
   * which PostgreSQL recovers to the last commit when the copy is opened.
   */
  snapshot?(): Promise<Blob>;
  /**
   * PostgreSQL only: one connection of its own for work that needs a session (the migrations'
   * advisory lock is held by the connection that took it). Give it back with `release()`.
   */
  dedicatedConnection?(): Promise<pg.PoolClient>;
};

export type DatabaseOptions =
  | { kind: "postgres"; url: string; poolSize?: number; /** Where a lost connection is reported; silent without one. */ log?: Logger }
  | { kind: "pglite"; dataDir?: string /* undefined = in memory */ };

/**
 * PGlite runs inside the server's process, so its buffers are the server's memory: PostgreSQL's
 * 128 MB of shared buffers (and 64 MB for index builds) would be most of the process once touched,
 * and the kernel's file cache holds the data files anyway. Measured with `npm run bench:uploads`.
 */
const PGLITE_MEMORY = ["-c", "shared_buffers=32MB", "-c", "maintenance_work_mem=16MB"];

/** Connections of the background pool (see Database.background). */
const BACKGROUND_POOL_SIZE = 4;

/** How the site's connections name themselves to PostgreSQL. */
export const APPLICATION_NAME = "torepoke";

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    // application_name: `npm run db:restore` counts the site's sessions by it (pg_stat_activity).
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, application_name: APPLICATION_NAME });
    // Opens its connections only when used (a process without deliveries never does).
    const backgroundPool = new pg.Pool({ connectionString: options.url, max: BACKGROUND_POOL_SIZE, application_name: APPLICATION_NAME });
    surviveLostConnections(pool, "requests", options.log);
    surviveLostConnections(backgroundPool, "background", options.log);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      background: drizzlePg(backgroundPool, { schema }) as unknown as Db,
      kind: "postgres",
      close: async () => {
        await Promise.all([pool.end(), backgroundPool.end()]);
      },
      ping: async () => {
        await pool.query("select 1");
      },
      dedicatedConnection: () => pool.connect(),
    };
  }
  const dataDir = options.dataDir ? path.resolve(options.dataDir) : undefined;
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const releaseLock = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY] });
  } catch (err) {
    releaseLock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    background: db,
    kind: "pglite",
    close: async () => {
      await client.close();
      releaseLock();
    },
    ping: async () => {
      await client.query("select 1");
    },
    ...(dataDir
      ? {
          snapshot: async () => {
            // A checkpoint first writes the dirty pages out, so the copy opens without replaying WAL.
            await client.query("checkpoint");
            return client.dumpDataDir("none");
          },
        }
      : {}),
  };
}

/**
 * PostgreSQL ending a connection (a restart, a failover, a proxy restart, pg_terminate_backend,
 * idle_in_transaction_session_timeout) makes its client emit 'error'. The pool listens only while
 * a client is idle: one checked out by a request had no listener, and the event crashed the
 * process. Every client now has its own listener for its whole life; the work on it fails, and the
 * next request gets a new connection.
 */
function surviveLostConnections(pool: pg.Pool, name: string, log: Logger | undefined): void {
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_err, client) => checkedOut.delete(client));
  pool.on("connect", (client) => {
    let lost = false;
    client.on("error", (err: Error & { code?: string }) => {
      // The server's message and then the socket's end: one lost connection, one line.
      if (lost) return;
      lost = true;
      log?.warn("database connection lost", { pool: name, ...(err.code ? { code: err.code } : {}), error: err.message });
      if (!checkedOut.has(client)) return;
      // Drizzle's transaction() sends BEGIN outside its try/finally: when that BEGIN fails on the
      // dead client nobody releases it, and the pool would lose the slot for good. The pool takes
      // it back now (and drops it); the holder's own release later does nothing.
      client.release(err);
      client.release = () => {};
    });
  });
  // An idle client's loss, which the pool re-emits: the client's listener has logged it.
  pool.on("error", () => {});
}

/**
 * PGlite is one process's database: a second process opening the same folder (a CLI while the
 * server runs) would corrupt it. A lock file holding the owner's pid refuses that clearly; a
 * lock left by a process that no longer exists is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = dataDirOwner(dataDir);
      if (owner && owner !== process.pid) {
        throw new Error(
          `the database in ${path.dirname(dataDir)} is in use by another process (pid ${owner}); stop it first, or use DATABASE_URL with PostgreSQL to share a database`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`cannot lock ${lockFile}`);
}

/** The live process holding `dataDir`'s lock, or null (none, or one that no longer exists). */
export function dataDirOwner(dataDir: string): number | null {
  let owner: number;
  try {
    owner = Number(readFileSync(`${dataDir}.lock`, "utf8").trim());
  } catch {
    return null;
  }
  return owner && isAlive(owner) ? owner : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The database the configuration names — PostgreSQL for DATABASE_URL, else PGlite in
 * DATA_DIR/db — with the committed migrations applied. The server and every CLI open it so.
 */
export async function openConfiguredDatabase(config: { databaseUrl?: string; dataDir: string }, log?: Logger): Promise<Database> {
  const database = config.databaseUrl
    ? await openDatabase({ kind: "postgres", url: config.databaseUrl, log })
    : await openDatabase({ kind: "pglite", dataDir: path.join(config.dataDir, "db") });
  try {
    await migrateDatabase(database, { log });
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/** The committed migrations: drizzle/ in the install folder, whatever the working directory. */
export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR ? path.resolve(process.env.MIGRATIONS_DIR) : path.join(INSTALL_DIR, "drizzle");
}

/**
 * The session-level advisory lock every instance holds while it migrates a PostgreSQL database
 * (any fixed number; this one spells "torepoke" in ASCII).
 */
export const MIGRATION_LOCK_KEY = "8390050410818136933";

/**
 * Applies the committed migrations; the same files run on PGlite and PostgreSQL. On PostgreSQL,
 * instances starting together (a rolling deploy, a scaled-out start) take turns under an advisory
 * lock: without it each reads the same last migration and applies the next, and all but the
 * first fail on its tables. The embedded database has one process at a time (its folder lock).
 */
export async function migrateDatabase(database: Database, options: { folder?: string; log?: Logger } = {}): Promise<void> {
  const folder = options.folder ?? migrationsFolder();
  if (database.kind === "pglite") {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await migratePglite(database.db as any, { migrationsFolder: folder });
    return;
  }
  if (!database.dedicatedConnection) throw new Error("a PostgreSQL database needs a connection of its own to migrate under the lock");
  const connection = await database.dedicatedConnection();
  try {
    const [{ locked }] = (await connection.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [MIGRATION_LOCK_KEY])).rows;
    if (!locked) {
      options.log?.info("waiting for another instance to finish migrating the database");
      await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    }
    // The migrator's statements and its transaction run on the connection that holds the lock.
    await migratePg(drizzlePg(connection, { schema }), { migrationsFolder: folder });
    await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  } catch (err) {
    // Closed rather than returned to the pool: the lock (if taken) goes with its session.
    connection.release(err instanceof Error ? err : true);
    throw err;
  }
  connection.release();
}
