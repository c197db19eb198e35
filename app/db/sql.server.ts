import type { SQL } from "drizzle-orm";
import type { Db } from "./client.server";

/** An open transaction: what `db.transaction(async (tx) => …)` hands over. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The database or a transaction: services that can run inside a caller's transaction take this. */
export type Queryable = Db | Tx;

/**
 * Rows of a raw SQL query, typed by the caller. Both drivers (pg and PGlite) answer
 * `db.execute` with `{ rows }`; the row type is the caller's promise about its own select list.
 */
export async function rowsOf<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/**
 * True when a query failed on a unique constraint (PostgreSQL's 23505), however the driver and
 * Drizzle wrapped the database's error (it may sit a few `cause`s deep).
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}
