import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import type { Server as SocketServer } from "socket.io";
import type { Database } from "../app/db/client.server";
import type { Env } from "../app/lib/env.server";
import type { Logger } from "./logger";

export type Realtime = { close(): Promise<void> };

/**
 * Socket.IO on the same HTTP server. With REDIS_URL the Redis adapter fans events out across
 * instances; without it everything stays in-process.
 */
export async function attachRealtime(options: {
  io: SocketServer;
  env: Env;
  database: Database;
  log: Logger;
}): Promise<Realtime> {
  const { io, env, log } = options;
  const closers: (() => Promise<unknown>)[] = [];
  if (env.redisUrl) {
    const pub = createClient({ url: env.redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err: Error) => log.error("redis error", { error: err.message }));
    sub.on("error", (err: Error) => log.error("redis error", { error: err.message }));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    closers.push(() => pub.quit(), () => sub.quit());
    log.info("realtime fan-out through redis");
  }
  io.on("connection", (socket) => {
    socket.on("ping:server", (ack?: (reply: { ok: true; at: number }) => void) => {
      if (typeof ack === "function") ack({ ok: true, at: Date.now() });
    });
  });
  return {
    close: async () => {
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}
