import { createWriteStream } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import * as tar from "tar";
import { version as appVersion } from "#package.json";
import { dataDirOwner, openDatabase, type Database } from "#app/db/client.server.ts";
import { type BackupEnv } from "#app/lib/env.server.ts";
import { BackupRefusal } from "./errors";
import { pgDump } from "./postgres-tools.server";
import { askServerForBackup } from "./requests.server";
import { BACKUP_FORMAT, MANIFEST, PGLITE_DUMP, POSTGRES_DUMP, SECRET_FILES, STAGING_PREFIX, isDirectory, isFile, linkTree, appliedMigrations, backupFileName, pruneBackups, type BackupManifest, type BackupResult } from "./archive.server";

// Making a backup (its format: archive.server.ts; bringing one back: restore.server.ts).

/**
 * Writes one backup of `database` (and of DATA_DIR's uploads and generated secrets) into
 * BACKUP_DIR, then keeps the newest BACKUP_KEEP. The archive is written under a hidden name
 * and renamed when complete, so a backup that exists is whole.
 */
export async function createBackup(env: BackupEnv, database: Database, now = new Date()): Promise<BackupResult> {
  const started = Date.now();
  const dir = env.backups.dir;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, backupFileName(database.kind, now));
  const partial = path.join(dir, `.${path.basename(file)}.partial`);
  const staging = await mkdtemp(path.join(dir, STAGING_PREFIX));
  try {
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      kind: database.kind,
      createdAt: now.toISOString(),
      appVersion,
      migrations: await appliedMigrations(database.db),
      uploads: false,
      secrets: [],
    };
    await mkdir(path.join(staging, "database"));
    if (database.kind === "pglite") {
      if (!database.snapshot) throw new BackupRefusal("this database lives in memory: there is nothing on disk to back up");
      const snapshot = await database.snapshot();
      // The DOM's and Node's stream types differ only in their typings here.
      await pipeline(Readable.fromWeb(snapshot.stream() as unknown as NodeReadableStream), createWriteStream(path.join(staging, PGLITE_DUMP), { mode: 0o600 }));
    } else {
      if (!env.databaseUrl) throw new BackupRefusal("DATABASE_URL is not set");
      await pgDump(env.databaseUrl, path.join(staging, POSTGRES_DUMP));
    }
    // After the database: an upload's file is written before its row (features/uploads), so
    // every upload the snapshot names is among the files linked now.
    const uploads = path.join(env.dataDir, "uploads");
    if (env.uploadsLocal && (await isDirectory(uploads))) {
      await linkTree(uploads, path.join(staging, "uploads"));
      manifest.uploads = true;
    }
    for (const name of SECRET_FILES) {
      const secret = path.join(env.dataDir, name);
      if (!(await isFile(secret))) continue;
      await mkdir(path.join(staging, "secrets"), { recursive: true, mode: 0o700 });
      await copyFile(secret, path.join(staging, "secrets", name));
      manifest.secrets.push(name);
    }
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // The manifest first: a reader finds it without unpacking the rest.
    const entries = [MANIFEST, "database", ...(manifest.uploads ? ["uploads"] : []), ...(manifest.secrets.length ? ["secrets"] : [])];
    await tar.create({ file: partial, mode: 0o600, gzip: true, cwd: staging, portable: true }, entries);
    await chmod(partial, 0o600);
    await rename(partial, file);
    const removed = await pruneBackups(dir, env.backups.keep);
    return { file, bytes: (await stat(file)).size, ms: Date.now() - started, manifest, removed };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Staging folders and half-written archives older than this were left by a process that died. */
const LEFTOVER_AGE_MS = 60 * 60_000;

/** Removes what a backup that died half-way left in BACKUP_DIR; answers how many it removed. */
export async function removeBackupLeftovers(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(STAGING_PREFIX) && !(name.startsWith(".") && name.endsWith(".partial"))) continue;
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (!info || now - info.mtimeMs < LEFTOVER_AGE_MS) continue;
    await rm(path.join(dir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * `npm run db:backup`: with PostgreSQL, pg_dump from here; with the embedded database, the
 * running server makes it (only the process holding the folder's lock may open it), or, when
 * none runs, this process opens the database itself.
 */
export async function backupCommand(env: BackupEnv): Promise<BackupResult & { by: "server" | "command" }> {
  if (env.databaseUrl) {
    const database = await openDatabase({ kind: "postgres", url: env.databaseUrl, poolSize: 1 });
    try {
      return { ...(await createBackup(env, database)), by: "command" };
    } finally {
      await database.close();
    }
  }
  const dbDir = path.join(env.dataDir, "db");
  if (!(await isDirectory(dbDir))) throw new BackupRefusal(`there is no database in ${env.dataDir} (DATA_DIR): nothing to back up`);
  const owner = dataDirOwner(dbDir);
  if (owner) return { ...((await askServerForBackup(env.dataDir, owner)) as BackupResult), by: "server" };
  // Not migrated: the backup holds the database as it is, whichever version wrote it.
  const database = await openDatabase({ kind: "pglite", dataDir: dbDir });
  try {
    return { ...(await createBackup(env, database)), by: "command" };
  } finally {
    await database.close();
  }
}
