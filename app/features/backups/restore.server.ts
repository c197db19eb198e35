import { openAsBlob } from "node:fs";
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import * as tar from "tar";
import { APPLICATION_NAME, dataDirOwner, lockDataDir } from "#app/db/client.server.ts";
import { type BackupEnv } from "#app/lib/env.server.ts";
import { BackupRefusal } from "./errors";
import { pgRestore, requireTool } from "./postgres-tools.server";
import { BACKUP_REQUESTS_FOLDER } from "./requests.server";
import { MANIFEST, PGLITE_DUMP, POSTGRES_DUMP, ARCHIVE_ROOTS, isFile, knownMigrations, readManifest, checkMigrations, type BackupManifest } from "./archive.server";

/** Bringing a backup back into DATA_DIR (and DATABASE_URL), the server stopped (docs/decisions/030-backups.md). */
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

