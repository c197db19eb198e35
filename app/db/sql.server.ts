import { createHash } from "node:crypto";
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
export async function rowsOf<T>(db: Queryable, query: SQL, options?: { prepared: string }): Promise<T[]> {
  if (options) return (await preparedResult<T>(db, query, options.prepared)).rows;
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** What `rowsOf` needs of Drizzle's own: the dialect that writes the text and the session that runs it. */
type DrizzleInternals = {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): { execute(): Promise<unknown> } };
};

/** Statement name per text: the text is built on every call, its name once. */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_KEPT = 500;
/** PostgreSQL keeps 63 bytes of a name: the label and the 13 characters of the hash must fit. */
const LABEL_MAX = 40;
/** Renamings after a plan went stale (see preparedResult): part of every later name. */
let generation = 0;

/** PostgreSQL's refusal of a prepared statement whose table changed under it: 0A000, "cached plan must not change result type". */
function isStalePlan(error: unknown): boolean {
  const message = databaseErrorOf(error, "0A000");
  return message !== null && /cached plan/.test(message);
}

/**
 * A statement that runs on every chat message or page (`rowsOf(db, query, { prepared: "label" })`)
 * is planned once per connection instead of on every call. On PostgreSQL, parsing and planning
 * such a statement cost more than running it (measured with pg_stat_statements,
 * docs/decisions/050); a named statement is prepared the first time a connection runs it and
 * reused after. The name is the label plus a hash of the text, so two texts never share a name
 * (the driver refuses that) and a changed statement after an upgrade is a new one. Only for a
 * statement whose text has few shapes: each shape stays prepared on every connection of the pool.
 * PGlite (one process, no connection to keep a plan for) runs it as any other query. The rows are
 * what `db.execute` answers, with the same type parsers.
 *
 * A migration that changes the type of a column a prepared statement answers (a rolling deploy's
 * new release migrating under this one) makes PostgreSQL refuse that statement on every
 * connection that prepared it. Then every text is named anew (the connections prepare the new
 * names), and a statement outside a transaction is run again once; one inside a transaction fails
 * with it, as any error would.
 */
async function preparedResult<T>(db: Queryable, query: SQL, label: string): Promise<{ rows: T[] }> {
  if (label.length > LABEL_MAX) throw new Error(`prepared statement label over ${LABEL_MAX} characters: ${label}`);
  const internals = db as unknown as DrizzleInternals;
  const built = internals.dialect.sqlToQuery(query);
  const run = () => {
    let name = statementNames.get(built.sql);
    if (!name) {
      name = `${label}_${generation ? `${generation}_` : ""}${createHash("sha1").update(built.sql).digest("base64url").slice(0, 12)}`;
      if (statementNames.size >= STATEMENT_NAMES_KEPT) statementNames.clear();
      statementNames.set(built.sql, name);
    }
    return internals.session.prepareQuery(built, undefined, name, false).execute() as Promise<{ rows: T[] }>;
  };
  try {
    return await run();
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    generation++;
    statementNames.clear();
    if (inTransaction(db)) throw error;
    return run();
  }
}

/** A transaction's handle (Drizzle's PgTransaction) can roll back; the database's cannot. */
function inTransaction(db: Queryable): boolean {
  return typeof (db as { rollback?: unknown }).rollback === "function";
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
  return databaseErrorOf(error, "23505") !== null;
}

/** The message of the database's error with this SQLSTATE `code`, however the driver and Drizzle wrapped it (a few `cause`s deep), or null. */
function databaseErrorOf(error: unknown, code: string): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: string }).code === code) return String((e as { message?: unknown }).message ?? "");
  }
  return null;
}
