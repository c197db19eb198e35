import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import * as tar from "tar";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { users } from "#app/db/schema/index.ts";
import { BackupRefusal } from "#app/features/backups/errors.ts";
import { knownMigrations, listBackups, readManifest, type BackupManifest } from "#app/features/backups/archive.server.ts";
import { createBackup } from "#app/features/backups/backups.server.ts";
import { restoreBackup } from "#app/features/backups/restore.server.ts";
import { MISSING_TOOL } from "#app/features/backups/postgres-tools.server.ts";
import { answerBackupRequests, askServerForBackup, BACKUP_REQUESTS_FOLDER } from "#app/features/backups/requests.server.ts";
import { startBackups } from "#app/features/backups/schedule.server.ts";
import { loadEnv, type BackupEnv } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";
import { until } from "#tests/support/wait.ts";

const WEBP = Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 not really an image", "binary");
const SECRET = "s".repeat(43);
const VAPID = '{"publicKey":"p","privateKey":"k"}\n';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function backupEnv(dataDir: string, overrides: Partial<BackupEnv> = {}): BackupEnv {
  return { dataDir, databaseUrl: undefined, uploadsLocal: true, backups: { dir: path.join(dataDir, "backups"), keep: 7, hourJst: 4 }, ...overrides };
}

/** What a running site leaves in DATA_DIR besides its database: an upload (and one being written) and the generated secrets. */
function writeSiteFiles(dataDir: string): void {
  mkdirSync(path.join(dataDir, "uploads", "articles"), { recursive: true });
  writeFileSync(path.join(dataDir, "uploads", "articles", "cover.webp"), WEBP);
  writeFileSync(path.join(dataDir, "uploads", "articles", "next.webp.1a2b.partial"), "half");
  writeFileSync(path.join(dataDir, "auth-secret"), `${SECRET}\n`, { mode: 0o600 });
  writeFileSync(path.join(dataDir, "vapid.json"), VAPID, { mode: 0o600 });
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") });
  await migrateDatabase(database);
  return database;
}

async function userNames(database: Database): Promise<string[]> {
  return (await database.db.select({ name: users.name }).from(users)).map((u) => u.name).sort();
}

async function archiveEntries(file: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.list({ file, onReadEntry: (e) => void entries.push(e.path) });
  return entries;
}

/** A .tar.gz holding `manifest` (and `files`, by path), for the refusals what is inside decides. */
async function archiveWith(manifest: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = tempDir("torepoke-manifest-");
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const file = path.join(dir, "backup.tar.gz");
  await tar.create({ file, gzip: true, cwd: dir }, ["manifest.json", ...new Set(Object.keys(files).map((name) => name.split("/")[0]))]);
  return file;
}

const embedded = process.env.TEST_DB !== "postgres";

describe.runIf(embedded)("backups of the embedded database", () => {
  it("one archive holds the database, the uploads and the generated secrets, readable only by its owner", async () => {
    const dataDir = tempDir("torepoke-backup-");
    const database = await openEmbedded(dataDir);
    cleanups.push(() => database.close());
    await createUser(database.db, { name: "バックアップ太郎" });
    writeSiteFiles(dataDir);

    const backup = await createBackup(backupEnv(dataDir), database, new Date("2026-01-10T19:00:00.000Z"));

    expect(path.basename(backup.file)).toBe("torepoke-2026-01-10T19-00-00-000Z-pglite.tar.gz");
    expect(statSync(backup.file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(backup.file)).mode & 0o777).toBe(0o700);
    expect(await readManifest(backup.file)).toEqual({
      format: 1,
      kind: "pglite",
      createdAt: "2026-01-10T19:00:00.000Z",
      appVersion: JSON.parse(readFileSync("package.json", "utf8")).version,
      migrations: await knownMigrations(),
      uploads: true,
      secrets: ["auth-secret", "vapid.json"],
    } satisfies BackupManifest);
    const entries = await archiveEntries(backup.file);
    expect(entries[0]).toBe("manifest.json");
    expect(entries).toEqual(expect.arrayContaining(["database/pglite.tar", "uploads/articles/cover.webp", "secrets/auth-secret", "secrets/vapid.json"]));
    // A file still being written is not part of the site yet.
    expect(entries.some((e) => e.endsWith(".partial"))).toBe(false);
    // Nothing of the making is left behind.
    expect(readdirSync(path.dirname(backup.file))).toEqual([path.basename(backup.file)]);
  });

  it("wipe, then restore: the rows, the uploads and the secrets come back (secrets 0600), and the site's migrations still apply", async () => {
    const dataDir = path.join(tempDir("torepoke-restore-"), "data");
    const database = await openEmbedded(dataDir);
    await createUser(database.db, { name: "復元花子" });
    writeSiteFiles(dataDir);
    const backup = await createBackup(backupEnv(dataDir), database);
    await database.close();
    const kept = path.join(path.dirname(dataDir), "kept.tar.gz");
    copyFileSync(backup.file, kept);
    rmSync(dataDir, { recursive: true });

    const restored = await restoreBackup(backupEnv(dataDir), kept);

    expect(restored.keptAs).toBeNull();
    expect(readFileSync(path.join(dataDir, "uploads", "articles", "cover.webp"))).toEqual(WEBP);
    expect(readFileSync(path.join(dataDir, "auth-secret"), "utf8")).toBe(`${SECRET}\n`);
    expect(readFileSync(path.join(dataDir, "vapid.json"), "utf8")).toBe(VAPID);
    for (const secret of ["auth-secret", "vapid.json"]) expect(statSync(path.join(dataDir, secret)).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(dataDir, "db.lock"))).toBe(false);
    expect(readdirSync(dataDir).sort()).toEqual(["auth-secret", "db", "uploads", "vapid.json"]);
    const again = await openEmbedded(dataDir);
    cleanups.push(() => again.close());
    expect(await userNames(again)).toEqual(["復元花子"]);
  });

  it("a folder with data is replaced only with --force: before it nothing changes; after it the old folder is kept beside and the backups carried over", async () => {
    const dataDir = path.join(tempDir("torepoke-force-"), "data");
    const database = await openEmbedded(dataDir);
    await createUser(database.db, { name: "バックアップ前" });
    writeSiteFiles(dataDir);
    const backup = await createBackup(backupEnv(dataDir), database);
    await createUser(database.db, { name: "バックアップ後" });
    await database.close();
    const before = readdirSync(dataDir).sort();

    const refusal = restoreBackup(backupEnv(dataDir), backup.file, { now: new Date("2026-02-01T00:00:00.000Z") });
    await expect(refusal).rejects.toThrow(BackupRefusal);
    await expect(refusal).rejects.toThrow(`${dataDir} (DATA_DIR) is not empty (auth-secret, db, uploads, vapid.json): run again with --force to replace it`);
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect(readdirSync(path.dirname(dataDir))).toEqual(["data"]);
    const untouched = await openEmbedded(dataDir);
    expect(await userNames(untouched)).toEqual(["バックアップ前", "バックアップ後"]);
    await untouched.close();

    const restored = await restoreBackup(backupEnv(dataDir), backup.file, { force: true, now: new Date("2026-02-01T00:00:00.000Z") });

    expect(restored.keptAs).toBe(`${dataDir}.before-restore-2026-02-01T00-00-00-000Z`);
    expect(readdirSync(path.dirname(dataDir)).sort()).toEqual(["data", "data.before-restore-2026-02-01T00-00-00-000Z"]);
    expect(readdirSync(restored.keptAs!).sort()).toEqual(["auth-secret", "db", "uploads", "vapid.json"]);
    expect((await listBackups(path.join(dataDir, "backups"))).map((b) => b.file)).toEqual([backup.file]);
    const back = await openEmbedded(dataDir);
    cleanups.push(() => back.close());
    expect(await userNames(back)).toEqual(["バックアップ前"]);
  });

  it("refuses while the server holds the folder", async () => {
    const dataDir = tempDir("torepoke-running-");
    const database = await openEmbedded(dataDir);
    const backup = await createBackup(backupEnv(dataDir), database);
    await database.close();
    // Another live process holds the lock (our parent stands in for the server).
    writeFileSync(path.join(dataDir, "db.lock"), String(process.ppid));
    cleanups.push(() => rmSync(path.join(dataDir, "db.lock"), { force: true }));
    await expect(restoreBackup(backupEnv(dataDir), backup.file, { force: true })).rejects.toThrow(
      `the server is running (process ${process.ppid} holds ${path.join(dataDir, "db")}.lock): stop it before restoring`,
    );
  });

  it("keeps the newest BACKUP_KEEP backups and leaves other files in the folder alone", async () => {
    const dataDir = tempDir("torepoke-keep-");
    const database = await openEmbedded(dataDir);
    cleanups.push(() => database.close());
    const env = backupEnv(dataDir, { backups: { dir: path.join(dataDir, "elsewhere"), keep: 2, hourJst: 4 } });
    mkdirSync(env.backups.dir);
    writeFileSync(path.join(env.backups.dir, "notes.txt"), "mine");
    const made = [];
    for (const day of ["01", "02", "03"]) made.push(await createBackup(env, database, new Date(`2026-01-${day}T19:00:00.000Z`)));

    expect(made.map((b) => b.removed)).toEqual([[], [], [path.basename(made[0].file)]]);
    expect(readdirSync(env.backups.dir).sort()).toEqual(["notes.txt", path.basename(made[1].file), path.basename(made[2].file)]);
    expect((await listBackups(env.backups.dir)).map((b) => b.at.toISOString())).toEqual(["2026-01-03T19:00:00.000Z", "2026-01-02T19:00:00.000Z"]);
  });

  it("refuses what it cannot restore, with the reason", async () => {
    const dataDir = tempDir("torepoke-refusals-");
    const env = backupEnv(dataDir);
    const known = await knownMigrations();
    const manifest = { format: 1, kind: "pglite", createdAt: "2026-01-10T19:00:00.000Z", appVersion: "9.9.9", migrations: known, uploads: false, secrets: [] };
    const notTar = path.join(dataDir, "notes.tar.gz");
    writeFileSync(notTar, "just text");

    await expect(restoreBackup(env, path.join(dataDir, "missing.tar.gz"))).rejects.toThrow(/missing\.tar\.gz: no such file$/);
    await expect(restoreBackup(env, notTar)).rejects.toThrow(/notes\.tar\.gz is not a backup of this site \(not a readable \.tar\.gz/);
    await expect(restoreBackup(env, await archiveWith(null))).rejects.toThrow(/is not a backup of this site \(its manifest\.json is not a JSON object\)/);
    await expect(restoreBackup(env, await archiveWith({ hello: "world" }))).rejects.toThrow(/is not a backup of this site \(its manifest\.json does not describe one\)/);
    await expect(restoreBackup(env, await archiveWith({ ...manifest, format: 2 }))).rejects.toThrow(/is in backup format 2, newer than this version reads \(1\): restore it with the version that made it \(9\.9\.9\) or a later one/);
    await expect(restoreBackup(env, await archiveWith({ ...manifest, migrations: known + 1 }))).rejects.toThrow(
      `this backup was made by a newer version of the site (9.9.9, with ${known + 1} database migrations; this version has ${known}): restore it with that version or a later one`,
    );
    await expect(restoreBackup({ ...env, databaseUrl: "postgres://localhost/x" }, await archiveWith(manifest))).rejects.toThrow(/holds the embedded database, but DATABASE_URL is set/);
    await expect(restoreBackup(env, await archiveWith({ ...manifest, kind: "postgres" }))).rejects.toThrow("this backup holds a PostgreSQL database: set DATABASE_URL to the database to restore it into");
    // None of them wrote anything.
    expect(readdirSync(dataDir)).toEqual(["notes.tar.gz"]);

    // A damaged database: refused, and nothing of the attempt is left.
    const emptyDir = path.join(tempDir("torepoke-damaged-"), "data");
    await expect(restoreBackup(backupEnv(emptyDir), await archiveWith(manifest, { "database/pglite.tar": "not a tar" }))).rejects.toThrow(/: this version's embedded database cannot open the database in it \(/);
    await expect(restoreBackup(backupEnv(emptyDir), await archiveWith(manifest))).rejects.toThrow(/is damaged: it has no database\/pglite\.tar$/);
    expect(readdirSync(path.dirname(emptyDir))).toEqual(["data"]);
    expect(readdirSync(emptyDir)).toEqual([]);
  });

  it("npm run db:backup asks the server through DATA_DIR/backup-requests, and says plainly when nobody answers", async () => {
    const dataDir = tempDir("torepoke-requests-");
    mkdirSync(path.join(dataDir, "db"));
    // This process stands in for the server holding the lock.
    writeFileSync(path.join(dataDir, "db.lock"), String(process.pid));

    const asked = askServerForBackup<{ file: string }>(dataDir, process.pid);
    await until(async () => (await answerBackupRequests(dataDir, async () => ({ file: "made.tar.gz" }))) === 1, "the request answered");
    await expect(asked).resolves.toEqual({ file: "made.tar.gz" });

    const failing = askServerForBackup(dataDir, process.pid);
    await until(
      async () =>
        (await answerBackupRequests(dataDir, async () => {
          throw new Error("no space left on device");
        })) === 1,
      "the failing request answered",
    );
    await expect(failing).rejects.toThrow("the server could not make the backup: no space left on device");

    await expect(askServerForBackup(dataDir, process.pid, { takeWithinMs: 200 })).rejects.toThrow(
      `process ${process.pid} holds the database (${path.join(dataDir, "db")}.lock) but did not take the backup request within 0 s`,
    );
    expect(readdirSync(path.join(dataDir, BACKUP_REQUESTS_FOLDER))).toEqual([]);
  });
});

describe.runIf(embedded)("the server's backups", () => {
  it("a night missed (the last backup three days old) is made soon after start, and a request from db:backup is answered with a backup of its own", async () => {
    const dataDir = tempDir("torepoke-scheduled-");
    const database = await openEmbedded(dataDir);
    cleanups.push(() => database.close());
    const env = loadEnv({ DATA_DIR: dataDir, BACKUP_HOUR: "4" });
    mkdirSync(env.backups.dir);
    const old = `torepoke-${new Date(Date.now() - 3 * 86_400_000).toISOString().replace(/[:.]/g, "-")}-pglite.tar.gz`;
    writeFileSync(path.join(env.backups.dir, old), "an old backup");
    const lines: string[] = [];
    const backups = await startBackups({ env, database, log: createLogger("info", (line) => void lines.push(line)) });
    cleanups.push(() => backups.stop());

    await until(() => lines.length > 0, "the nightly backup", 20_000);
    const [nightly] = await listBackups(env.backups.dir);
    expect((await readManifest(nightly.file)).secrets).toEqual(["auth-secret", "vapid.json"]);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([expect.objectContaining({ msg: "backup written", job: "backups", reason: "nightly", file: nightly.file })]);

    const asked = await askServerForBackup<{ file: string }>(dataDir, process.pid);
    expect((await listBackups(env.backups.dir)).map((b) => b.file)).toEqual([asked.file, nightly.file, path.join(env.backups.dir, old)]);
    expect(JSON.parse(lines[1])).toMatchObject({ msg: "backup written", reason: "requested", file: asked.file });
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
const hasPgDump = spawnSync("pg_dump", ["--version"]).status === 0;

describe.runIf(!embedded && adminUrl && hasPgDump)("backups with PostgreSQL", () => {
  /** A migrated database of its own; close() ends the site's pool on it (once, whoever calls). */
  async function freshDatabase(): Promise<{ url: string; database: Database; close(): Promise<void> }> {
    const shared = await createSharedDatabase(adminUrl!, "torepoke_backup");
    const database = await openDatabase({ kind: "postgres", url: shared.url, poolSize: 2 });
    let closing: Promise<void> | null = null;
    const close = () => (closing ??= database.close());
    cleanups.push(shared.drop);
    cleanups.push(close);
    await migrateDatabase(database);
    return { url: shared.url, database, close };
  }

  it("pg_dump into the archive, pg_restore into an empty database: the rows, uploads and secrets come back", async () => {
    const dataDir = path.join(tempDir("torepoke-pg-backup-"), "data");
    const source = await freshDatabase();
    await createUser(source.database.db, { name: "ポスグレ次郎" });
    writeSiteFiles(dataDir);
    const backup = await createBackup(backupEnv(dataDir, { databaseUrl: source.url }), source.database);
    expect(statSync(backup.file).mode & 0o777).toBe(0o600);
    expect(await readManifest(backup.file)).toMatchObject({ kind: "postgres", migrations: await knownMigrations(), uploads: true, secrets: ["auth-secret", "vapid.json"] });
    expect(await archiveEntries(backup.file)).toEqual(expect.arrayContaining(["database/postgres.dump", "uploads/articles/cover.webp"]));

    const target = await createSharedDatabase(adminUrl!, "torepoke_restore");
    cleanups.push(target.drop);
    const otherDir = path.join(tempDir("torepoke-pg-restore-"), "data");
    const restored = await restoreBackup(backupEnv(otherDir, { databaseUrl: target.url }), backup.file);

    expect(restored.keptAs).toBeNull();
    expect(readFileSync(path.join(otherDir, "uploads", "articles", "cover.webp"))).toEqual(WEBP);
    expect(statSync(path.join(otherDir, "auth-secret")).mode & 0o777).toBe(0o600);
    const check = await openDatabase({ kind: "postgres", url: target.url, poolSize: 1 });
    try {
      expect(await userNames(check)).toEqual(["ポスグレ次郎"]);
      // Triggers and functions came back too: the migrations' trade match keys still work.
      const [{ n }] = await rowsOf<{ n: number }>(check.db, sql`select count(*)::int as n from pg_trigger where tgname like 'trade_offer_cards_match_keys_%'`);
      expect(n).toBe(3);
      await migrateDatabase(check);
    } finally {
      await check.close();
    }
  });

  it("a database with tables is replaced only with --force, never while the site is connected, nor when it is at a later version", async () => {
    const dataDir = tempDir("torepoke-pg-force-");
    const source = await freshDatabase();
    await createUser(source.database.db, { name: "元の行" });
    const env = backupEnv(dataDir, { databaseUrl: source.url, uploadsLocal: false });
    const backup = await createBackup(env, source.database);
    const later = await createUser(source.database.db, { name: "後の行" });

    // The site's own pool is still open on it.
    await expect(restoreBackup(env, backup.file, { force: true })).rejects.toThrow(/^the site has \d+ connections open to this database: stop every instance before restoring$/);
    await source.close();
    await expect(restoreBackup(env, backup.file)).rejects.toThrow(/^the database already has \d+ tables: run again with --force to replace it \(the database's tables are replaced\)$/);

    await restoreBackup(env, backup.file, { force: true });
    const check = await openDatabase({ kind: "postgres", url: source.url, poolSize: 1 });
    try {
      expect(await userNames(check)).toEqual(["元の行"]);
      expect(await check.db.select().from(users).where(eq(users.id, later.id))).toEqual([]);
      await check.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('later', 0)`);
    } finally {
      await check.close();
    }
    await expect(restoreBackup(env, backup.file, { force: true })).rejects.toThrow(/^the database is at a later version than the backup/);
  });

  it("says plainly when pg_dump is not installed", async () => {
    const dataDir = tempDir("torepoke-pg-missing-");
    const source = await freshDatabase();
    const path_ = process.env.PATH;
    process.env.PATH = path.join(dataDir, "no-tools-here");
    try {
      await expect(createBackup(backupEnv(dataDir, { databaseUrl: source.url }), source.database)).rejects.toThrow(MISSING_TOOL("pg_dump"));
    } finally {
      process.env.PATH = path_;
    }
    expect(MISSING_TOOL("pg_dump")).toBe("pg_dump was not found; install postgresql-client (Debian: apt-get install postgresql-client)");
    // The backup folder has nothing half-made in it.
    expect(readdirSync(path.join(dataDir, "backups"))).toEqual([]);
  });

  it("checks the sessions by the name the site's connections give themselves", async () => {
    const source = await freshDatabase();
    await source.database.ping();
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    try {
      const names = await client.query<{ application_name: string }>("select application_name from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
      expect(names.rows.map((r) => r.application_name)).toContain("torepoke");
    } finally {
      await client.end();
    }
  });
});
