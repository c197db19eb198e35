import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema/index";

export type Schema = typeof schema;
/** The one database type services take: PGlite and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
  ping(): Promise<void>;
};

export type DatabaseOptions =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir?: string /* undefined = in memory */ };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client's error (server restart) must not crash the process.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      close: () => pool.end(),
      ping: async () => {
        await pool.query("select 1");
      },
    };
  }
  if (options.dataDir) mkdirSync(path.dirname(path.resolve(options.dataDir)), { recursive: true });
  const client = await PGlite.create({
    dataDir: options.dataDir ? path.resolve(options.dataDir) : undefined,
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    close: () => client.close(),
    ping: async () => {
      await client.query("select 1");
    },
  };
}

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");
}

/** Applies the committed migrations; the same files run on PGlite and PostgreSQL. */
export async function migrateDatabase(database: Database, folder = migrationsFolder()): Promise<void> {
  if (database.kind === "pglite") {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await migratePglite(database.db as any, { migrationsFolder: folder });
  } else {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await migratePg(database.db as any, { migrationsFolder: folder });
  }
}
