import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";

/**
 * The one way to make a rate limit (docs/decisions/039-one-rate-limit-api.md). A limit is a
 * definition (its name, how many, per which window); the store behind it is chosen for what the
 * limit guards, and every limiter answers the same question: `take(key)` counts one more and says
 * whether it is still within the limit.
 *
 * - `databaseLimit`: calendar windows (the current minute, hour, or day in Japan, as players count)
 *   in the `trade_rate_limits` table (named for its first use; it holds every database limit). Counted inside the transaction of the
 *   action it limits, so the count and the action commit or roll back together, and every instance
 *   counts in one place. For per-player limits of actions that write (offers, reports, uploads, …).
 * - `memoryLimit`: a sliding window in this process, checked before any database work (the
 *   analytics beacon per address, the chat without Redis: then there is one instance).
 * - `redisLimit`: the same sliding window in Redis, shared by every instance (the chat with Redis).
 *
 * Two limits stay outside this API on purpose: the auth library's own per-IP limit on sign-in and
 * sign-up (its `rate_limits` table, configured in features/users/auth.server.ts), and the sign-in
 * guard (features/users/sign-in-guard.server.ts), a growing wait per address that holds only the
 * clients that failed.
 */
export type LimitWindow = "minute" | "hour" | "day";

export type LimitDefinition<W = LimitWindow | { ms: number }> = {
  /** The name the count is kept under (database rows, Redis keys): one per limit. */
  name: string;
  /** How many takes a key may make in one window. */
  max: number;
  window: W;
};

export type RateLimiter = {
  readonly limit: LimitDefinition;
  /** Counts one for `key` (in `db`, the action's transaction, for a database limit) and answers whether it is within the limit. */
  take(key: string, db?: Queryable): Promise<boolean>;
};

/** A limit counted in the database, per calendar window, inside the caller's transaction. */
export function databaseLimit(limit: LimitDefinition<LimitWindow>): RateLimiter & { limit: LimitDefinition<LimitWindow> } {
  return {
    limit,
    async take(key, db) {
      if (!db) throw new Error(`rate limit ${limit.name}: a database limit is counted in the action's transaction`);
      return (await countInWindow(db, key, limit.name, limit.window)) <= limit.max;
    },
  };
}

/**
 * The count of `action` by `key` in the current window, one more with every call (an atomic upsert).
 * A minute or day window is kept under its own row name (`<action>/minute`, `<action>/day`), so the
 * hourly count of the same action is not disturbed. Windows older than a day are dropped on the way.
 */
async function countInWindow(db: Queryable, key: string, action: string, window: LimitWindow): Promise<number> {
  const row = window === "hour" ? action : `${action}/${window}`;
  const start = window === "day" ? sql`(date_trunc('day', now() at time zone 'Asia/Tokyo') at time zone 'Asia/Tokyo')` : sql`date_trunc(${window}, now())`;
  const [counted] = await rowsOf<{ count: number }>(
    db,
    sql`insert into trade_rate_limits (user_id, action, window_start, count)
        values (${key}, ${row}, ${start}, 1)
        on conflict (user_id, action, window_start) do update set count = trade_rate_limits.count + 1
        returning count`,
  );
  await db.execute(sql`delete from trade_rate_limits where user_id = ${key} and window_start < now() - interval '1 day'`);
  return Number(counted?.count ?? 0);
}

const windowMs = (window: LimitWindow | { ms: number }) =>
  typeof window === "object" ? window.ms : window === "minute" ? 60_000 : window === "hour" ? 3_600_000 : 86_400_000;

/** A sliding window in this process's memory (idle keys are forgotten now and then). */
export function memoryLimit(limit: LimitDefinition, now: () => number = Date.now): RateLimiter {
  const span = windowMs(limit.window);
  const windows = new Map<string, number[]>();
  let sweeps = 0;
  return {
    limit,
    async take(key) {
      const t = now();
      const since = t - span;
      // Times are in order: drop the expired ones from the front (no copy of a long window per call).
      const recent = windows.get(key) ?? [];
      let expired = 0;
      while (expired < recent.length && recent[expired] <= since) expired++;
      if (expired) recent.splice(0, expired);
      const allowed = recent.length < limit.max;
      if (allowed) recent.push(t);
      windows.set(key, recent);
      if (++sweeps % 1000 === 0) {
        for (const [id, times] of windows) if (times.every((at) => at <= since)) windows.delete(id);
      }
      return allowed;
    },
  };
}

/** The subset of a node-redis client a Redis limit needs. */
export type RedisEval = {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
};

// Trim the window, refuse when full, otherwise record this take — atomically in Redis.
const SLIDING_WINDOW = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** The sliding window in Redis, one for every instance. */
export function redisLimit(limit: LimitDefinition, redis: RedisEval): RateLimiter {
  const span = windowMs(limit.window);
  let counter = 0;
  return {
    limit,
    async take(key) {
      const t = Date.now();
      const member = `${t}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      const result = await redis.eval(SLIDING_WINDOW, {
        keys: [`torepoke:${limit.name}:${key}`],
        arguments: [String(t), String(span), String(limit.max), member],
      });
      return Number(result) === 1;
    },
  };
}
