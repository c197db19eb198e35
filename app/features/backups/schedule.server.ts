import type { Database } from "#app/db/client.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { startSweep } from "#app/lib/sweep.server.ts";
import { listBackups, type BackupResult } from "./archive.server";
import { createBackup, removeBackupLeftovers } from "./backups.server";
import { answerBackupRequests, clearStaleRequests, watchBackupRequests } from "./requests.server";

/** How often the server looks for backup requests it was not told of and whether the nightly one is due. */
export const BACKUP_SWEEP_MS = 5_000;
/** A nightly backup that failed (a full disk) is tried again this much later, not at every sweep. */
const RETRY_AFTER_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const JST_OFFSET_MS = 9 * HOUR_MS;

/** The latest `hourJst` o'clock in Japan at or before `now`. */
export function latestHourJst(now: Date, hourJst: number): Date {
  const jst = new Date(now.getTime() + JST_OFFSET_MS);
  const atHour = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), jst.getUTCDate(), hourJst) - JST_OFFSET_MS;
  return new Date(atHour <= now.getTime() ? atHour : atHour - DAY_MS);
}

/**
 * The nightly backup is due once the day's BACKUP_HOUR has passed since the last backup (of any
 * kind) — or, in a folder with none yet, since the server started: a server that was down at that
 * hour makes it when it comes back, and a brand-new site waits for its first night.
 */
export function nightlyDue(now: Date, hourJst: number | null, lastBackupAt: Date | null, startedAt: Date): boolean {
  if (hourJst === null) return false;
  return latestHourJst(now, hourJst).getTime() > (lastBackupAt ?? startedAt).getTime();
}

/**
 * The embedded database's backups, made by the server (the one process that may open it): the
 * nightly one at BACKUP_HOUR (Japan time), and those `npm run db:backup` asks for. One at a time.
 * With PostgreSQL the server makes none: `npm run db:backup` runs pg_dump itself, on the
 * operator's schedule and from one machine (docs/decisions/030-backups.md). stop() waits for a
 * backup in progress, so the database closes after it.
 */
export async function startBackups(options: { env: Env; database: Database; log: Logger }): Promise<{ stop(): Promise<void> }> {
  const { env, database } = options;
  if (database.kind !== "pglite" || !database.snapshot) return { stop: async () => {} };
  const log = options.log.child({ job: "backups" });
  const backupEnv = { ...env, uploadsLocal: !env.s3 };
  const startedAt = new Date();
  await clearStaleRequests(env.dataDir);
  await removeBackupLeftovers(env.backups.dir);
  let lastBackupAt: Date | null = (await listBackups(env.backups.dir))[0]?.at ?? null;
  let retryAt = 0;
  let stopped = false;
  let queue: Promise<unknown> = Promise.resolve();

  const make = (reason: "nightly" | "requested"): Promise<BackupResult> => {
    const job = queue.then(async () => {
      try {
        const result = await createBackup(backupEnv, database);
        lastBackupAt = new Date(result.manifest.createdAt);
        log.info("backup written", { reason, file: result.file, bytes: result.bytes, ms: result.ms, removed: result.removed.length });
        return result;
      } catch (err) {
        log.error("backup failed", { reason, error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    });
    queue = job.catch(() => {});
    return job;
  };

  const check = async (): Promise<number> => {
    if (stopped) return 0;
    let made = await answerBackupRequests(env.dataDir, () => make("requested"));
    if (Date.now() >= retryAt && nightlyDue(new Date(), env.backups.hourJst, lastBackupAt, startedAt)) {
      try {
        await make("nightly");
        made++;
      } catch {
        retryAt = Date.now() + RETRY_AFTER_MS;
      }
    }
    return made;
  };
  // One check at a time; a request that arrives during one is seen by the next.
  let checking: Promise<number> | null = null;
  let again = false;
  const checkNow = (): Promise<number> => {
    if (checking) {
      again = true;
      return checking;
    }
    checking = check().finally(() => {
      checking = null;
      if (again && !stopped) {
        again = false;
        void checkNow().catch(() => {});
      }
    });
    return checking;
  };

  const sweep = startSweep({ run: checkNow, firstAfterMs: BACKUP_SWEEP_MS, everyMs: BACKUP_SWEEP_MS, log, failed: "backup check failed" });
  const watcher = await watchBackupRequests(env.dataDir, () => void checkNow().catch((err: unknown) => log.warn("backup check failed", { error: err instanceof Error ? err.message : String(err) })));
  return {
    stop: async () => {
      stopped = true;
      sweep.stop();
      watcher.close();
      await queue;
    },
  };
}
