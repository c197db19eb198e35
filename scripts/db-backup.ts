// `npm run db:backup`: one backup now, into BACKUP_DIR (default DATA_DIR/backups), while the
// server runs or not (docs/decisions/030-backups.md).
import { backupCommand } from "../app/features/backups/backups.server";
import { BackupRefusal } from "../app/features/backups/errors";
import { AUTH_SECRET_FILE, ConfigError, loadBackupEnv } from "../app/lib/env.server";

try {
  const env = loadBackupEnv();
  const backup = await backupCommand(env);
  const by = backup.by === "server" ? "made by the running server, " : "";
  console.log(`Backup written: ${backup.file} (${(backup.bytes / 1e6).toFixed(1)} MB, ${by}${(backup.ms / 1000).toFixed(1)} s)`);
  console.log(
    `It holds the ${backup.manifest.kind === "pglite" ? "embedded database" : "PostgreSQL database"}${backup.manifest.uploads ? ", the uploads" : ""}${backup.manifest.secrets.length ? ` and ${backup.manifest.secrets.join(", ")}` : ""}; keep it private (it holds secrets).`,
  );
  if (!backup.manifest.secrets.includes(AUTH_SECRET_FILE)) console.log("BETTER_AUTH_SECRET is not in DATA_DIR (set in the environment?): keep it with the backup, or sessions end after a restore.");
  if (backup.removed.length) console.log(`Removed ${backup.removed.length} older backup(s): BACKUP_KEEP=${env.backups.keep}.`);
} catch (err) {
  if (err instanceof BackupRefusal || err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
