/**
 * Message rate limit per user (20 messages per 10 s). With Redis it is one sliding window shared
 * by every instance, so a user cannot multiply the limit by landing sockets on several servers;
 * without Redis there is one instance and the window lives in its memory.
 */
export type MessageRateLimiter = {
  /** Records one message for `userId` and answers whether it is allowed. */
  allow(userId: string): Promise<boolean>;
};

export const MESSAGE_RATE_LIMIT = { limit: 20, windowMs: 10_000 };

export function createMemoryRateLimiter(options = MESSAGE_RATE_LIMIT, now: () => number = Date.now): MessageRateLimiter {
  const windows = new Map<string, number[]>();
  let sweeps = 0;
  return {
    async allow(userId) {
      const t = now();
      const since = t - options.windowMs;
      // Times are in order: drop the expired ones from the front (no copy of a long window per call).
      const recent = windows.get(userId) ?? [];
      let expired = 0;
      while (expired < recent.length && recent[expired] <= since) expired++;
      if (expired) recent.splice(0, expired);
      const allowed = recent.length < options.limit;
      if (allowed) recent.push(t);
      windows.set(userId, recent);
      // Forget idle users now and then so the map does not grow without bound.
      if (++sweeps % 1000 === 0) {
        for (const [id, times] of windows) if (times.every((at) => at <= since)) windows.delete(id);
      }
      return allowed;
    },
  };
}

/** The subset of a node-redis client the limiter needs. */
export type RedisEval = {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
};

// Trim the window, refuse when full, otherwise record this message — atomically in Redis.
const SLIDING_WINDOW = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

export function createRedisRateLimiter(redis: RedisEval, options = MESSAGE_RATE_LIMIT): MessageRateLimiter {
  let counter = 0;
  return {
    async allow(userId) {
      const t = Date.now();
      const member = `${t}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      const result = await redis.eval(SLIDING_WINDOW, {
        keys: [`torepoke:chat-rate:${userId}`],
        arguments: [String(t), String(options.windowMs), String(options.limit), member],
      });
      return Number(result) === 1;
    },
  };
}
