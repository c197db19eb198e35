import { copyFile, link, mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder, type Database } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { AUTH_SECRET_FILE, VAPID_FILE } from "#app/lib/data-dir-secrets.server.ts";
import * as tar from "tar";
import { z } from "#app/lib/zod.ts";
import { BackupRefusal } from "./errors";

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
export const MANIFEST = "manifest.json";
export const PGLITE_DUMP = "database/pglite.tar";
export const POSTGRES_DUMP = "database/postgres.dump";
export const SECRET_FILES = [AUTH_SECRET_FILE, VAPID_FILE] as const;
/** Everything an archive may hold; a restore unpacks nothing else. */
export const ARCHIVE_ROOTS = new Set([MANIFEST, "database", "uploads", "secrets"]);
export const STAGING_PREFIX = ".staging-";

export const ManifestSchema = z.object({
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

export async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() ?? false;
}

export async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isFile() ?? false;
}

/**
 * The upload folder as hard links: instant, no second copy on disk, and the set of files as it
 * was at this moment (a stored upload is never rewritten). A copy where links cannot be made.
 * Files still being written (`.partial`) are left out.
 */
export async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile() && !entry.name.endsWith(".partial")) await link(source, target).catch(() => copyFile(source, target));
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

