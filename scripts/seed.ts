// `npm run db:seed`: (re)loads the real card catalogue; idempotent, safe to run any time.
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

const env = loadEnv();
const database = await openConfiguredDatabase(env);
const started = Date.now();
const result = await seedCatalogue(database.db);
console.log(`Catalogue loaded: ${result.packs} packs, ${result.cards} cards (${Date.now() - started} ms).`);
await database.close();
