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
 * The same count in the current minute's, hour's or day's window. A minute or day window is kept
 * under its own action name (`<action>/minute`, `<action>/day`), so the hourly count of the same
 * action is not disturbed. A day is a day in Japan (it starts at midnight JST), as players count.
 */
export async function countInWindow(tx: Queryable, userId: string, action: string, window: "minute" | "hour" | "day"): Promise<number> {
  const key = window === "hour" ? action : `${action}/${window}`;
  const start = window === "day" ? sql`(date_trunc('day', now() at time zone 'Asia/Tokyo') at time zone 'Asia/Tokyo')` : sql`date_trunc(${window}, now())`;
  const [row] = await rowsOf<{ count: number }>(
    tx,
    sql`insert into trade_rate_limits (user_id, action, window_start, count)
        values (${userId}, ${key}, ${start}, 1)
        on conflict (user_id, action, window_start) do update set count = trade_rate_limits.count + 1
        returning count`,
  );
  await tx.execute(sql`delete from trade_rate_limits where user_id = ${userId} and window_start < now() - interval '1 day'`);
  return Number(row?.count ?? 0);
}
