// `npm run db:migrate`: applies committed migrations (start-up does this too).
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

const env = loadEnv();
const database = await openConfiguredDatabase(env);
console.log(`Migrations applied (${database.kind}).`);
await database.close();
