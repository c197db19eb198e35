import { createWriteStream, openAsBlob } from "node:fs";
import { chmod, copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as tar from "tar";
import { version as appVersion } from "../../../package.json";
import { APPLICATION_NAME, dataDirOwner, lockDataDir, migrationsFolder, openDatabase, type Database } from "../../db/client.server";
import { rowsOf, type Queryable } from "../../db/sql.server";
import { AUTH_SECRET_FILE, VAPID_FILE, type BackupEnv } from "../../lib/env.server";
import { z } from "../../lib/zod";
import { BackupRefusal } from "./errors";
import { pgDump, pgRestore, requireTool } from "./postgres-tools.server";
import { askServerForBackup, BACKUP_REQUESTS_FOLDER } from "./requests.server";

/**
 * Backups of the site's data (docs/decisions/030-backups.md): one .tar.gz holding
 *
 *   manifest.json            what it is (BackupManifest), read before anything is touched
 *   database/pglite.tar      the embedded database: PGlite's own copy of its data folder
 *   database/postgres.dump   or, with DATABASE_URL, pg_dump's custom format
 *   uploads/…                DATA_DIR/uploads, when uploads are stored locally
 *   secrets/…                the auth secret and VAPID pair generated into DATA_DIR, when there
 *
 * written 0600 (it holds the secrets) into BACKUP_DIR, the newest BACKUP_KEEP kept.
 */
export const BACKUP_FORMAT = 1;
const MANIFEST = "manifest.json";
const PGLITE_DUMP = "database/pglite.tar";
const POSTGRES_DUMP = "database/postgres.dump";
const SECRET_FILES = [AUTH_SECRET_FILE, VAPID_FILE] as const;
/** Everything an archive may hold; a restore unpacks nothing else. */
const ARCHIVE_ROOTS = new Set([MANIFEST, "database", "uploads", "secrets"]);
const STAGING_PREFIX = ".staging-";

const ManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  kind: z.enum(["pglite", "postgres"]),
  createdAt: z.string(),
  appVersion: z.string(),
  /** Migrations applied to the database when it was backed up. */
  migrations: z.number().int().min(0),
  uploads: z.boolean(),
  secrets: z.array(z.enum(SECRET_FILES)),
});
export type BackupManifest = z.infer<typeof ManifestSchema>;

export type BackupResult = { file: string; bytes: number; ms: number; manifest: BackupManifest; removed: string[] };

// torepoke-2026-01-10T19-00-00-000Z-pglite.tar.gz: sorts by time, and says what it holds.
const BACKUP_NAME = /^torepoke-(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z-(pglite|postgres)\.tar\.gz$/;

export function backupFileName(kind: Database["kind"], at: Date): string {
  return `torepoke-${at.toISOString().replace(/[:.]/g, "-")}-${kind}.tar.gz`;
}

/** The backups in `dir` (the files this site named; anything else there is left alone), newest first. */
export async function listBackups(dir: string): Promise<{ name: string; file: string; at: Date }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: BACKUP_NAME.exec(name) }))
    .filter((b): b is { name: string; match: RegExpExecArray } => b.match !== null)
    .map(({ name, match }) => ({ name, file: path.join(dir, name), at: new Date(`${match[1]}:${match[2]}:${match[3]}.${match[4]}Z`) }))
    .sort((a, b) => b.name.localeCompare(a.name));
}

/** Removes all but the newest `keep` backups; answers the names removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep);
  for (const backup of old) await rm(backup.file, { force: true });
  return old.map((b) => b.name);
}

export async function appliedMigrations(db: Queryable): Promise<number> {
  const [{ present }] = await rowsOf<{ present: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!present) return 0;
  const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return n;
}

/** The migrations this version of the site ships (drizzle's journal). */
export async function knownMigrations(folder = migrationsFolder()): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() ?? false;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isFile() ?? false;
}

/**
 * The upload folder as hard links: instant, no second copy on disk, and the set of files as it
 * was at this moment (a stored upload is never rewritten). A copy where links cannot be made.
 * Files still being written (`.partial`) are left out.
 */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile() && !entry.name.endsWith(".partial")) await link(source, target).catch(() => copyFile(source, target));
  }
}

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

/** The manifest of a backup file, checked: refused with a plain reason when it is not one this version can restore. */
export async function readManifest(file: string): Promise<BackupManifest> {
  if (!(await isFile(file))) throw new BackupRefusal(`${file}: no such file`);
  const chunks: Buffer[] = [];
  let found = false;
  try {
    await tar.list({
      file,
      strict: true,
      filter: (entryPath) => entryPath === MANIFEST,
      onReadEntry: (entry) => {
        found = true;
        entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      },
    });
  } catch (err) {
    throw new BackupRefusal(`${file} is not a backup of this site (not a readable .tar.gz: ${err instanceof Error ? err.message : String(err)})`);
  }
  if (!found) throw new BackupRefusal(`${file} is not a backup of this site (it has no ${MANIFEST})`);
  let raw: { format?: unknown; appVersion?: unknown };
  try {
    raw = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof raw;
    if (!raw || typeof raw !== "object") throw new Error("not an object");
  } catch {
    throw new BackupRefusal(`${file} is not a backup of this site (its ${MANIFEST} is not a JSON object)`);
  }
  if (typeof raw.format === "number" && raw.format > BACKUP_FORMAT) {
    throw new BackupRefusal(`${file} is in backup format ${raw.format}, newer than this version reads (${BACKUP_FORMAT}): restore it with the version that made it (${String(raw.appVersion)}) or a later one`);
  }
  const manifest = ManifestSchema.safeParse(raw);
  if (!manifest.success) throw new BackupRefusal(`${file} is not a backup of this site (its ${MANIFEST} does not describe one)`);
  return manifest.data;
}

/** A backup from a newer version has migrations this one does not know: its code would not read that database. */
export function checkMigrations(manifest: BackupManifest, known: number): void {
  if (manifest.migrations > known) {
    throw new BackupRefusal(
      `this backup was made by a newer version of the site (${manifest.appVersion}, with ${manifest.migrations} database migrations; this version has ${known}): restore it with that version or a later one`,
    );
  }
}

export type RestoreResult = { manifest: BackupManifest; dataDir: string; /** Where the data folder as it was is kept, or null when it was empty. */ keptAs: string | null };

/**
 * `npm run db:restore <file>`: brings back what the backup holds, or refuses (with nothing
 * changed) when the backup is not one this version restores, the server runs, or there is data
 * to replace and `force` was not given.
 */
export async function restoreBackup(env: BackupEnv, file: string, options: { force?: boolean; now?: Date } = {}): Promise<RestoreResult> {
  const manifest = await readManifest(path.resolve(file));
  checkMigrations(manifest, await knownMigrations());
  if (manifest.kind === "pglite" && env.databaseUrl) {
    throw new BackupRefusal("this backup holds the embedded database, but DATABASE_URL is set: unset it to restore into DATA_DIR (it cannot be restored into PostgreSQL)");
  }
  if (manifest.kind === "postgres" && !env.databaseUrl) throw new BackupRefusal("this backup holds a PostgreSQL database: set DATABASE_URL to the database to restore it into");
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
  return manifest.kind === "pglite"
    ? restoreEmbedded(env, path.resolve(file), manifest, Boolean(options.force), stamp)
    : restorePostgres(env, path.resolve(file), manifest, Boolean(options.force), stamp);
}

/** Entries of DATA_DIR that are not the data a restore replaces: the backups, pending backup requests, the lock. */
function carriedOver(env: BackupEnv): Set<string> {
  const names = new Set([BACKUP_REQUESTS_FOLDER]);
  if (path.dirname(env.backups.dir) === env.dataDir) names.add(path.basename(env.backups.dir));
  return names;
}

async function dataEntries(env: BackupEnv): Promise<string[]> {
  const carried = carriedOver(env);
  const names = await readdir(env.dataDir).catch(() => [] as string[]);
  return names.filter((name) => name !== "db.lock" && !carried.has(name)).sort();
}

function refuseToReplace(what: string[], then: string): BackupRefusal {
  return new BackupRefusal(`${what.join(" and ")}: run again with --force to replace ${what.length > 1 ? "them" : "it"} (${then})`);
}

/**
 * The folder the backup is unpacked into, which then takes DATA_DIR's place by one rename: beside
 * DATA_DIR, or inside it when DATA_DIR is a mount point (a container's volume) or its parent
 * cannot be written, where the swap is one rename per entry instead.
 */
async function restoreFolder(dataDir: string, stamp: string): Promise<{ temp: string; inside: boolean }> {
  const parent = path.dirname(dataDir);
  const [self, above] = await Promise.all([stat(dataDir), stat(parent)]);
  if (self.dev === above.dev) {
    const temp = `${dataDir}.restore-${stamp}`;
    try {
      await mkdir(temp, { mode: 0o700 });
      return { temp, inside: false };
    } catch (err) {
      if (!["EACCES", "EPERM", "EROFS"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
    }
  }
  const temp = path.join(dataDir, `.restore-${stamp}`);
  await mkdir(temp, { mode: 0o700 });
  return { temp, inside: true };
}

/** Unpacks the archive's own entries (files and folders only: no links, nothing outside `into`). */
async function unpack(file: string, into: string): Promise<void> {
  await tar.extract({
    file,
    cwd: into,
    strict: true,
    preserveOwner: false,
    filter: (entryPath, entry) => {
      const type = "type" in entry ? entry.type : entry.isDirectory() ? "Directory" : "File";
      return (type === "File" || type === "Directory") && ARCHIVE_ROOTS.has(entryPath.split("/")[0]);
    },
  });
}

/** Turns the unpacked archive in `temp` into a data folder: the secrets at their places, the archive's own files gone. */
async function placeSecrets(temp: string, manifest: BackupManifest): Promise<void> {
  for (const name of manifest.secrets) {
    await rename(path.join(temp, "secrets", name), path.join(temp, name));
    await chmod(path.join(temp, name), 0o600);
  }
  await rm(path.join(temp, "secrets"), { recursive: true, force: true });
  await rm(path.join(temp, "database"), { recursive: true, force: true });
  await rm(path.join(temp, MANIFEST), { force: true });
}

/**
 * Puts the restored folder `temp` in DATA_DIR's place, carrying the backups over, and keeps the
 * folder as it was as `<DATA_DIR>.before-restore-<time>` (nothing is deleted). Answers where.
 */
async function swapIn(env: BackupEnv, folder: { temp: string; inside: boolean }, existing: string[], stamp: string): Promise<string | null> {
  const { dataDir } = env;
  if (folder.inside) {
    // Entry by entry; a failure half-way moves back what was moved, so DATA_DIR is never half restored.
    const keptAs = existing.length ? path.join(dataDir, `before-restore-${stamp}`) : null;
    const moved: [from: string, to: string][] = [];
    try {
      if (keptAs) {
        await mkdir(keptAs, { mode: 0o700 });
        for (const name of existing) {
          await rename(path.join(dataDir, name), path.join(keptAs, name));
          moved.push([path.join(dataDir, name), path.join(keptAs, name)]);
        }
      }
      for (const name of await readdir(folder.temp)) {
        await rename(path.join(folder.temp, name), path.join(dataDir, name));
        moved.push([path.join(folder.temp, name), path.join(dataDir, name)]);
      }
    } catch (err) {
      for (const [from, to] of moved.reverse()) await rename(to, from).catch(() => {});
      if (keptAs) await rm(keptAs, { recursive: false, force: true }).catch(() => {});
      throw err;
    }
    await rm(folder.temp, { recursive: true, force: true });
    return keptAs;
  }
  // DATA_DIR moves aside whole first (kept, or removed at the end when it held nothing but the
  // carried-over folders); only once the restored folder is in its place do the backups move into
  // it. A rename that fails puts DATA_DIR back, and the backups never sit in a folder that a
  // failure would delete.
  const aside = existing.length ? `${dataDir}.before-restore-${stamp}` : `${dataDir}.restore-aside-${stamp}`;
  await rename(dataDir, aside).catch((err: NodeJS.ErrnoException) => {
    throw new BackupRefusal(`${dataDir} (DATA_DIR) could not be moved aside (${err.code ?? err.message}; a mount point?): nothing was changed`);
  });
  try {
    await rename(folder.temp, dataDir);
  } catch (err) {
    await rename(aside, dataDir);
    throw err;
  }
  await rm(path.join(aside, "db.lock"), { force: true });
  for (const name of carriedOver(env)) {
    if (await stat(path.join(aside, name)).catch(() => null)) await rename(path.join(aside, name), path.join(dataDir, name));
  }
  if (!existing.length) await rm(aside, { recursive: true, force: true });
  return existing.length ? aside : null;
}

async function restoreEmbedded(env: BackupEnv, file: string, manifest: BackupManifest, force: boolean, stamp: string): Promise<RestoreResult> {
  const { dataDir } = env;
  const dbDir = path.join(dataDir, "db");
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const owner = dataDirOwner(dbDir);
  if (owner) throw new BackupRefusal(`the server is running (process ${owner} holds ${dbDir}.lock): stop it before restoring`);
  // Held until the end, so that a server started meanwhile refuses to open a half-restored folder.
  const unlock = lockDataDir(dbDir);
  try {
    const existing = await dataEntries(env);
    if (existing.length && !force) {
      throw refuseToReplace([`${dataDir} (DATA_DIR) is not empty (${existing.join(", ")})`], `the folder as it is now is then kept as ${dataDir}.before-restore-<time>`);
    }
    const folder = await restoreFolder(dataDir, stamp);
    try {
      await unpack(file, folder.temp);
      const dump = path.join(folder.temp, PGLITE_DUMP);
      if (!(await isFile(dump))) throw new BackupRefusal(`${file} is damaged: it has no ${PGLITE_DUMP}`);
      // PGlite opens its own copy (recovering it as after a crash) and writes the data folder.
      const client = await PGlite.create({ dataDir: path.join(folder.temp, "db"), extensions: { pg_trgm }, loadDataDir: await openAsBlob(dump) }).catch((err: unknown) => {
        // A copy made by a PGlite of another PostgreSQL major version does not open (decision 030).
        throw new BackupRefusal(`${file}: this version's embedded database cannot open the database in it (${err instanceof Error ? err.message : String(err)})`);
      });
      let migrations: number;
      try {
        const present = await client.query<{ present: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
        migrations = present.rows[0].present ? (await client.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")).rows[0].n : 0;
      } finally {
        await client.close();
      }
      if (migrations !== manifest.migrations) throw new BackupRefusal(`${file} is damaged: its database has ${migrations} migrations, its manifest says ${manifest.migrations}`);
      await placeSecrets(folder.temp, manifest);
      // The restored folder is locked by this process from the moment it is DATA_DIR.
      if (!folder.inside) await writeFile(path.join(folder.temp, "db.lock"), String(process.pid));
      return { manifest, dataDir, keptAs: await swapIn(env, folder, existing, stamp) };
    } catch (err) {
      await rm(folder.temp, { recursive: true, force: true });
      throw err;
    }
  } finally {
    unlock();
  }
}

async function restorePostgres(env: BackupEnv, file: string, manifest: BackupManifest, force: boolean, stamp: string): Promise<RestoreResult> {
  const url = env.databaseUrl!;
  const { dataDir } = env;
  await requireTool("pg_restore");
  const client = new pg.Client({ connectionString: url, application_name: `${APPLICATION_NAME}-restore` });
  await client.connect();
  let tables: number;
  let live: number;
  try {
    const sessions = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()",
      [APPLICATION_NAME],
    );
    if (sessions.rows[0].n > 0) throw new BackupRefusal(`the site has ${sessions.rows[0].n} connections open to this database: stop every instance before restoring`);
    tables = (await client.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')")).rows[0].n;
    const present = await client.query<{ present: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
    live = present.rows[0].present ? (await client.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")).rows[0].n : 0;
  } finally {
    await client.end();
  }
  // pg_restore --clean replaces the objects the dump holds; tables of later migrations would stay,
  // and the site could not migrate the older database again over them.
  if (live > manifest.migrations) {
    throw new BackupRefusal(
      `the database is at a later version than the backup (${live} migrations applied, the backup has ${manifest.migrations}): restoring over it would leave the later tables behind. Empty it first (drop and create the database), then restore again`,
    );
  }
  const carriesFiles = manifest.uploads || manifest.secrets.length > 0;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const existing = carriesFiles ? await dataEntries(env) : [];
  const replaced = [
    ...(tables > 0 ? [`the database already has ${tables} tables`] : []),
    ...(existing.length ? [`${dataDir} (DATA_DIR) is not empty (${existing.join(", ")})`] : []),
  ];
  if (replaced.length && !force) {
    const then = [...(tables > 0 ? ["the database's tables are replaced"] : []), ...(existing.length ? [`DATA_DIR as it is now is kept as ${dataDir}.before-restore-<time>`] : [])];
    throw refuseToReplace(replaced, then.join("; "));
  }
  const folder = await restoreFolder(dataDir, stamp);
  try {
    await unpack(file, folder.temp);
    const dump = path.join(folder.temp, POSTGRES_DUMP);
    if (!(await isFile(dump))) throw new BackupRefusal(`${file} is damaged: it has no ${POSTGRES_DUMP}`);
    // The restore leaves extensions out (pgRestore): an emptied database gets pg_trgm back first.
    const ext = new pg.Client({ connectionString: url, application_name: `${APPLICATION_NAME}-restore` });
    await ext.connect();
    try {
      await ext.query("create extension if not exists pg_trgm");
    } finally {
      await ext.end();
    }
    await pgRestore(url, dump);
    if (!carriesFiles) {
      await rm(folder.temp, { recursive: true, force: true });
      return { manifest, dataDir, keptAs: null };
    }
    await placeSecrets(folder.temp, manifest);
    return { manifest, dataDir, keptAs: await swapIn(env, folder, existing, stamp) };
  } catch (err) {
    await rm(folder.temp, { recursive: true, force: true });
    throw err;
  }
}
