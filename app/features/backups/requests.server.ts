import { randomBytes } from "node:crypto";
import { watch, type FSWatcher } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { dataDirOwner } from "#app/db/client.server.ts";
import { BackupRefusal } from "./errors";

/**
 * How `npm run db:backup` asks the running server for a backup of the embedded database, which
 * only the process holding the data folder's lock may open (docs/decisions/030-backups.md): a
 * file in DATA_DIR/backup-requests. Whoever can write the data folder may ask, nobody else; no
 * port, token or signal is involved (a signal would kill a process that is not the server, such
 * as `npm run admin`, which holds the lock too).
 *
 *   <id>.request        the command asks
 *   <id>.taken          the server has taken it (renamed: one taker) and is making the backup
 *   <id>.answer.json    the outcome; the command reads and removes it
 */
export const BACKUP_REQUESTS_FOLDER = "backup-requests";

/** The server notices a request at once (a watch), or at its next sweep (BACKUP_SWEEP_MS) where watching fails. */
export const TAKE_WITHIN_MS = 20_000;
const ANSWER_WITHIN_MS = 30 * 60_000;
const POLL_MS = 100;

type Answer<T> = { ok: true; result: T } | { ok: false; error: string };

/** The command's side: asks the server (process `owner`, holding the lock) and waits for its answer. */
export async function askServerForBackup<T>(dataDir: string, owner: number, options: { takeWithinMs?: number } = {}): Promise<T> {
  const dir = path.join(dataDir, BACKUP_REQUESTS_FOLDER);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const id = `${Date.now()}-${randomBytes(4).toString("hex")}`;
  const request = path.join(dir, `${id}.request`);
  const answer = path.join(dir, `${id}.answer.json`);
  await writeFile(request, `${process.pid}\n`);
  const asked = Date.now();
  const dbDir = path.join(dataDir, "db");
  for (;;) {
    const text = await readFile(answer, "utf8").catch(() => null);
    if (text !== null) {
      await rm(answer, { force: true });
      const outcome = JSON.parse(text) as Answer<T>;
      if (!outcome.ok) throw new BackupRefusal(`the server could not make the backup: ${outcome.error}`);
      return outcome.result;
    }
    const waiting = await stat(request).then(
      () => true,
      () => false,
    );
    if (waiting && Date.now() - asked > (options.takeWithinMs ?? TAKE_WITHIN_MS)) {
      await rm(request, { force: true });
      throw new BackupRefusal(
        `process ${owner} holds the database (${dbDir}.lock) but did not take the backup request within ${Math.round((options.takeWithinMs ?? TAKE_WITHIN_MS) / 1000)} s: it is not a running server (a command such as npm run admin holds the lock too). Let it finish, then run db:backup again`,
      );
    }
    if (dataDirOwner(dbDir) !== owner) {
      await rm(request, { force: true });
      throw new BackupRefusal(`the server (process ${owner}) stopped before it answered: run db:backup again`);
    }
    if (Date.now() - asked > ANSWER_WITHIN_MS) throw new BackupRefusal(`the server took the backup request but has not answered in ${ANSWER_WITHIN_MS / 60_000} minutes`);
    await sleep(POLL_MS);
  }
}

/** The server's side: takes each waiting request in turn, runs `make` and writes its outcome. Answers how many it answered. */
export async function answerBackupRequests<T>(dataDir: string, make: () => Promise<T>): Promise<number> {
  const dir = path.join(dataDir, BACKUP_REQUESTS_FOLDER);
  const names = await readdir(dir).catch(() => [] as string[]);
  let answered = 0;
  for (const name of names.filter((n) => n.endsWith(".request")).sort()) {
    const id = name.slice(0, -".request".length);
    const taken = path.join(dir, `${id}.taken`);
    try {
      await rename(path.join(dir, name), taken);
    } catch {
      continue; // the command gave up meanwhile
    }
    let outcome: Answer<T>;
    try {
      outcome = { ok: true, result: await make() };
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    const written = path.join(dir, `.${id}.answer`);
    await writeFile(written, JSON.stringify(outcome));
    await rename(written, path.join(dir, `${id}.answer.json`));
    await rm(taken, { force: true });
    answered++;
  }
  return answered;
}

/** At start: requests nobody waits for any more (a command that was stopped, a server that died mid-backup). */
export async function clearStaleRequests(dataDir: string, now = Date.now()): Promise<void> {
  const dir = path.join(dataDir, BACKUP_REQUESTS_FOLDER);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && (name.endsWith(".taken") || now - info.mtimeMs > TAKE_WITHIN_MS)) await rm(path.join(dir, name), { force: true });
  }
}

/** Calls `onRequest` when something appears in the requests folder; a folder that cannot be watched is left to the sweep. */
export async function watchBackupRequests(dataDir: string, onRequest: () => void): Promise<{ close(): void }> {
  const dir = path.join(dataDir, BACKUP_REQUESTS_FOLDER);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (!name || name.endsWith(".request")) onRequest();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    watcher = null;
  }
  return { close: () => watcher?.close() };
}
