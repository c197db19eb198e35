// `npm run db:restore <file> [--force]`: brings a backup back into DATA_DIR (and DATABASE_URL),
// the server stopped (docs/decisions/030-backups.md).
import { restoreBackup } from "../app/features/backups/backups.server";
import { BackupRefusal } from "../app/features/backups/errors";
import { ConfigError, loadBackupEnv } from "../app/lib/env.server";

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith("--"));
const unknown = args.filter((a) => a.startsWith("--") && a !== "--force");
// `npm run db:restore <file> --force` hands --force to npm, which passes it on as npm_config_force.
const force = args.includes("--force") || process.env.npm_config_force === "true";
if (files.length !== 1 || unknown.length) {
  console.error("Usage: npm run db:restore <backup file> [--force]   (--force replaces data that is there)");
  process.exit(2);
}

try {
  const restored = await restoreBackup(loadBackupEnv(), files[0], { force });
  const m = restored.manifest;
  console.log(`Restored ${files[0]}: the ${m.kind === "pglite" ? "embedded database" : "PostgreSQL database"} of ${m.createdAt} (version ${m.appVersion}, ${m.migrations} migrations)${m.uploads ? ", the uploads" : ""}${m.secrets.length ? ` and ${m.secrets.join(", ")}` : ""} into ${restored.dataDir}.`);
  if (restored.keptAs) console.log(`The data folder as it was is kept as ${restored.keptAs}; remove it once the site runs as it should.`);
  console.log("Start the server: it applies the migrations this version has and the backup had not.");
} catch (err) {
  if (err instanceof BackupRefusal || err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
