import type { Socket } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as build from "virtual:react-router/server-build";
import type { ServerBuild } from "react-router";
import { openConfiguredDatabase, type Database } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { ConfigError } from "#app/lib/config-error.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createHttpApp } from "./http";
import { cleanLocalUploads } from "#app/features/uploads/cleanup.server.ts";
import { localUploadsDir } from "#app/features/uploads/storage.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { startExpiryReminders } from "#app/features/notifications/expiry-reminders.server.ts";
import { startFriendPostExpiry } from "#app/features/friends/friends.server.ts";
import { startDeliveries } from "#app/start-deliveries.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import { collectStartupGarbage } from "./startup-memory";
import { attachDrain } from "./drain";
import { startNotificationDigests } from "#app/notification-pipeline.server.ts";
import { startBackups } from "#app/features/backups/schedule.server.ts";

/** A draining instance closes its listener after this long without a new request (server/drain.ts). */
const DRAIN_QUIET_MS = 1000;

/**
 * The process: configuration → database (migrated, catalogue loaded on first start) → HTTP +
 * Socket.IO → graceful shutdown. server.js at the repository root calls this.
 */
// The operator's commands (backup, restore, admin) travel in this bundle too: server.js runs them
// with `node server.js <command>`, so a release folder needs neither npm nor the sources.
export { runCommand } from "./commands";

export async function start(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(env.logLevel);
  const started = Date.now();
  registerFeatureLinks();

  let database: Database;
  try {
    database = await openConfiguredDatabase(env, log);
  } catch (err) {
    const what = env.databaseUrl ? "DATABASE_URL" : "DATA_DIR";
    process.stderr.write(`Cannot open the database (${what}): ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }

  // Adds only what is new (sets, cards, missing facts); renames go through `cards:update`.
  // A copy of catalogue/ the importer cannot read (an unknown rarity or energy of a newer set, a
  // missing file) is logged and the site starts with the cards it has: it never keeps it down.
  if (env.seedCatalogue) {
    const t = Date.now();
    try {
      const result = await seedCatalogue(database.db);
      if (result.plan.changes) log.info("card catalogue loaded", { ...result, ms: Date.now() - t });
    } catch (err) {
      log.error("card catalogue not loaded", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  // Files left by a crash in the middle of an upload (features/uploads/cleanup.server.ts).
  if (!env.s3) {
    // A clean-up that fails (an unreadable entry) is logged; it never keeps the site from starting.
    try {
      const cleaned = await cleanLocalUploads(database.db, localUploadsDir(env));
      if (cleaned.partial || cleaned.orphans) log.info("upload folder cleaned", cleaned);
    } catch (err) {
      log.error("upload folder clean-up failed", { error: err instanceof Error ? err.message : String(err) });
    }
  }
  // Queued mail (and later push) is delivered by this worker, on every instance (features/outbox).
  // On the background pool: a backlog of deliveries never holds the connections of a request.
  const deliveries = startDeliveries({ env, db: database.background, log });

  collectStartupGarbage();

  const clientDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../client");
  const { server, io, realtime, analytics, metrics } = await createHttpApp({
    env,
    database,
    build: build as unknown as ServerBuild,
    clientDir,
    log,
  });

  // A stopped instance drops no one (server/drain.ts): deploys replace instances one at a time.
  const drain = attachDrain(server, io);

  // Every connection the listener accepted, upgraded ones included, so the grace period can end them.
  const openSockets = new Set<Socket>();
  server.on("connection", (socket) => {
    openSockets.add(socket);
    socket.once("close", () => openSockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  // The address people use (SITE_URL) and the one the socket is bound to.
  log.info("listening", { url: env.siteUrl, address: `${env.host}:${port}`, mode: process.env.NODE_ENV, db: database.kind, ms: Date.now() - started });
  // The jobs start while signals are already handled: a deploy may stop an instance that has just
  // begun to listen, and a signal with no handler would kill it without draining.
  const jobs = (async () => {
    const expiryReminders = startExpiryReminders(database.db, log);
    const friendPostExpiry = startFriendPostExpiry(database.db, log);
    const digests = startNotificationDigests({ env, db: database.db, log });
    // The embedded database's nightly backup and those `npm run db:backup` asks for (features/backups).
    const backups = await startBackups({ env, database, log });
    return {
      stop: async () => {
        expiryReminders.stop();
        friendPostExpiry.stop();
        digests.stop();
        await backups.stop();
      },
    };
  })();
  if (process.env.NODE_ENV !== "production") log.warn("not in production mode: React and React Router run their slower development builds", { mode: process.env.NODE_ENV ?? "unset" });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = env.shutdownGraceSeconds * 1000;
    const deadline = Date.now() + graceMs;
    log.info("shutting down", { signal, graceSeconds: env.shutdownGraceSeconds });
    // The last resort: a step that never ends (a chat socket whose phone went silent holds ws's own
    // 30 s close, an unreachable Redis holds its quit) must not outlast the grace a process manager
    // gives before SIGKILL. Five seconds past the grace period the process exits anyway.
    const lastResort = setTimeout(() => {
      log.error("shutdown did not finish within the grace period; exiting", { signal, graceSeconds: env.shutdownGraceSeconds });
      process.exit(1);
    }, graceMs + 5_000);
    lastResort.unref();
    // New work goes elsewhere at once: /healthz answers draining, requests a proxy may retry are
    // refused for it to retry on another instance, chat sockets reconnect to another instance.
    drain.begin();
    // Meanwhile the outbox claims nothing more, finishes its sends and hands back the other rows.
    const deliveriesStopped = deliveries.stop();
    // Reminders, digests and backups stop too (a backup under way finishes).
    const jobsStopped = jobs.then((started) => started.stop()).catch(() => {});
    // The listener closes once requests have stopped arriving (the proxy has moved on), so none
    // is reset on its way in; at most half the grace period.
    await drain.settled(DRAIN_QUIET_MS, graceMs / 2);
    // Past the grace period, cut whatever is still open so the database can close: HTTP connections,
    // and upgraded ones (chat sockets), which closeAllConnections does not reach.
    const force = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of openSockets) socket.destroy();
    }, Math.max(0, deadline - Date.now()));
    force.unref();
    // io.close() closes the HTTP server: no new connections, and the callback runs once in-flight
    // requests have finished.
    await new Promise<void>((resolve) => io.close(() => resolve()));
    clearTimeout(force);
    // Socket handlers still running finish (the sender retries or syncs on the instance it is on now), then Redis closes
    // (not waited for past the grace period: an unreachable Redis would hold its quit for ever).
    await Promise.race([realtime.close(), sleep(Math.max(0, deadline - Date.now()), undefined, { ref: false })]);
    // A send still running when the grace period ends is not waited for: its row keeps its lease.
    const outboxStopped = await Promise.race([deliveriesStopped.then(() => true), sleep(Math.max(0, deadline - Date.now()), false, { ref: false })]);
    if (!outboxStopped) log.warn("outbox: a delivery outlasted the grace period; its row is sent again when its lease runs out");
    // Buffered analytics rows are written before the database closes.
    await analytics.close();
    await metrics.close();
    await jobsStopped;
    await database.close();
    log.info("stopped", { signal });
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // A job that cannot start fails start-up, as before.
  await jobs;
}
