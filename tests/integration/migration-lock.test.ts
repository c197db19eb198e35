import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, migrationsFolder, openConfiguredDatabase, openDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";

// Instances that start together against one PostgreSQL database (a rolling deploy, a scaled-out
// start) migrate it one at a time under an advisory lock (app/db/client.server.ts).
type Journal = { entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[] };
const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), "meta/_journal.json"), "utf8")) as Journal;

/** A migrations folder holding the first `count` committed migrations, plus `extra` ones after them. */
function migrationsUpTo(count: number, extra: { tag: string; sql: string }[] = []): string {
  const folder = mkdtempSync(path.join(tmpdir(), "torepoke-migrations-"));
  mkdirSync(path.join(folder, "meta"));
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) copyFileSync(path.join(migrationsFolder(), `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  let when = entries.at(-1)!.when;
  for (const migration of extra) {
    entries.push({ idx: entries.length, version: "7", when: ++when, tag: migration.tag, breakpoints: true });
    writeFileSync(path.join(folder, `${migration.tag}.sql`), migration.sql);
  }
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  expect(readdirSync(folder).filter((f) => f.endsWith(".sql"))).toHaveLength(entries.length);
  return folder;
}

async function appliedMigrations(database: Database): Promise<{ hash: string; times: number }[]> {
  return rowsOf<{ hash: string; times: number }>(database.db, sql`select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash order by min(id)`);
}

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<string> {
  const shared = await createSharedDatabase(adminUrl!, "torepoke_migrate");
  cleanups.push(shared.drop);
  return shared.url;
}

async function instance(url: string): Promise<Database> {
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  cleanups.push(() => database.close());
  return database;
}

describe.skipIf(process.env.TEST_DB !== "postgres")("migrations under the advisory lock (PostgreSQL only: the embedded database has one process and keeps its folder lock)", () => {
  it("two instances apply a pending migration at once: both succeed and each migration is recorded once", async () => {
    const url = await freshDatabase();
    const [first, second] = [await instance(url), await instance(url)];
    // The database as the previous release left it: every migration but the newest.
    await migrateDatabase(first, { folder: migrationsUpTo(journal.entries.length - 1) });
    // The new release: the newest committed migration and one that takes a moment, so that both
    // instances have read the last applied migration before either commits.
    const pending = migrationsUpTo(journal.entries.length, [{ tag: "9999_test_slow_step", sql: "create table migration_lock_probe (id integer primary key);\n--> statement-breakpoint\nselect pg_sleep(0.5);" }]);
    const lines: { msg: string }[] = [];
    const log = createLogger("info", (line) => void lines.push(JSON.parse(line)));
    const results = await Promise.allSettled([migrateDatabase(first, { folder: pending, log }), migrateDatabase(second, { folder: pending, log })]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok"]);
    // One waited for the other, and said so.
    expect(lines.map((l) => l.msg)).toEqual(["waiting for another instance to finish migrating the database"]);
    const applied = await appliedMigrations(first);
    expect(applied).toHaveLength(journal.entries.length + 1);
    expect(applied.filter((m) => m.times !== 1)).toEqual([]);
    // The lock was given back: a third run takes it at once and finds nothing to do.
    await migrateDatabase(second, { folder: pending });
    expect(await appliedMigrations(second)).toEqual(applied);
  });

  it("two instances started together on a fresh database both migrate it and serve", async () => {
    const url = await freshDatabase();
    const config = { databaseUrl: url, dataDir: mkdtempSync(path.join(tmpdir(), "torepoke-migrate-")) };
    const opened = await Promise.allSettled([openConfiguredDatabase(config), openConfiguredDatabase(config)]);
    for (const result of opened) if (result.status === "fulfilled") cleanups.push(() => result.value.close());
    expect(opened.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok"]);
    const databases = opened.map((r) => (r as PromiseFulfilledResult<Database>).value);
    const applied = await appliedMigrations(databases[0]);
    expect(applied).toHaveLength(journal.entries.length);
    expect(applied.filter((m) => m.times !== 1)).toEqual([]);
    // Each answers as an instance behind the balancer would.
    const env = loadEnv({ DATABASE_URL: url, DATA_DIR: config.dataDir, BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), SITE_URL: "http://torepoke.test", LOG_LEVEL: "error" });
    for (const database of databases) {
      const server = await startHttpApp({ env, database, routes: {} });
      cleanups.push(() => server.close());
      const res = await fetch(`${server.base}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", db: "ok" });
      // A table of the newest migration is there for each.
      expect(await rowsOf(database.db, sql`select count(*)::int as n from push_subscriptions where session_id is null`)).toEqual([{ n: 0 }]);
    }
  });
});
