// `npm run db:migrate`: applies committed migrations (start-up does this too).
import path from "node:path";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { loadEnv } from "../app/lib/env.server";

const env = loadEnv();
const database = env.databaseUrl
  ? await openDatabase({ kind: "postgres", url: env.databaseUrl })
  : await openDatabase({ kind: "pglite", dataDir: path.join(env.dataDir, "db") });
await migrateDatabase(database);
console.log(`Migrations applied (${database.kind}).`);
await database.close();
