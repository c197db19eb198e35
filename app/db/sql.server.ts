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
