import { sql, type SQL } from "drizzle-orm";
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
 * Several independent reads in one round trip: each query's rows, in its order, as JSON objects
 * keyed by the names of its select list — so timestamps come as ISO strings and numbers as
 * numbers, never as Date objects. On PGlite a query costs its round trip whatever it reads (parse,
 * plan, the WebAssembly call, the copy out: docs/decisions/026), so a page's small reads go
 * together. Each query is a complete SELECT; its ORDER BY orders its rows.
 */
export async function readTogether<T extends Record<string, object>>(db: Queryable, queries: { [K in keyof T]: SQL }): Promise<{ [K in keyof T]: T[K][] }> {
  const keys = Object.keys(queries) as (keyof T & string)[];
  const columns = keys.map((key) => sql`(select coalesce(json_agg(t), '[]'::json) from (${queries[key]}) t) as ${sql.identifier(key)}`);
  const [row] = await rowsOf<Record<string, unknown>>(db, sql`select ${sql.join(columns, sql`, `)}`);
  // Both drivers parse json columns; a driver that did not would hand over the text.
  return Object.fromEntries(keys.map((key) => [key, typeof row[key] === "string" ? JSON.parse(row[key]) : row[key]])) as { [K in keyof T]: T[K][] };
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
