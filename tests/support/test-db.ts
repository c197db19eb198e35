import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateDatabase, openDatabase, type Database } from "#app/db/client.server.ts";

/** `url`: the PostgreSQL database's own URL (a second pool on it is a second instance). */
export type TestDatabase = Database & { name: string; url?: string };

/**
 * A fresh, migrated database for one test file: PGlite in memory, or (TEST_DB=postgres) a new
 * database on the TEST_DATABASE_URL server, dropped again by close().
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB !== "postgres") {
    const database = await openDatabase({ kind: "pglite" });
    await migrateDatabase(database);
    return { ...database, name: "pglite" };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `torepoke_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 5 });
  await migrateDatabase(database);
  return {
    ...database,
    name,
    url: url.toString(),
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}
