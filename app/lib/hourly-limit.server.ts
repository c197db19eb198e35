import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "../db/sql.server";

/**
 * Counts one `action` of a user in the current hour's window (an atomic upsert; the
 * trade_rate_limits table holds every per-user hourly limit) and answers the new count. Call it
 * inside the transaction that does the action, and throw when the count passes the limit: the
 * error rolls both back. Windows older than a day are dropped on the way.
 */
export async function countInHour(tx: Queryable, userId: string, action: string): Promise<number> {
  return countInWindow(tx, userId, action, "hour");
}

/**
 * The same count in the current minute's or hour's window. A minute window is kept under its own
 * action name (`<action>/minute`), so the hourly count of the same action is not disturbed.
 */
export async function countInWindow(tx: Queryable, userId: string, action: string, window: "minute" | "hour"): Promise<number> {
  const key = window === "hour" ? action : `${action}/minute`;
  const [row] = await rowsOf<{ count: number }>(
    tx,
    sql`insert into trade_rate_limits (user_id, action, window_start, count)
        values (${userId}, ${key}, date_trunc(${window}, now()), 1)
        on conflict (user_id, action, window_start) do update set count = trade_rate_limits.count + 1
        returning count`,
  );
  await tx.execute(sql`delete from trade_rate_limits where user_id = ${userId} and window_start < now() - interval '1 day'`);
  return Number(row?.count ?? 0);
}
