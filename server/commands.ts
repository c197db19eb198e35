// The operator's commands, in the same bundle as the server (vite.config.ts builds this file as
// build/server/commands.js): `node server.js backup | restore <file> [--force] | admin …`, which a
// release folder runs as `<release>/start backup` and so on, without npm or the sources. In a
// checkout, `npm run db:backup`, `npm run db:restore` and `npm run admin` call the same functions.
import { backupCommand } from "#app/features/backups/backups.server.ts";
import { restoreBackup } from "#app/features/backups/restore.server.ts";
import { BackupRefusal } from "#app/features/backups/errors.ts";
import { openConfiguredDatabase, type Database } from "#app/db/client.server.ts";
import { listRoleAdmins, setAdminRole } from "#app/features/users/users.server.ts";
import { ConfigError } from "#app/lib/config-error.ts";
import { AUTH_SECRET_FILE } from "#app/lib/data-dir-secrets.server.ts";
import { loadBackupEnv, loadEnv } from "#app/lib/env.server.ts";

/** How the caller names the commands in its usage lines (`npm run db:restore`, or `./start restore`). */
export type CommandNames = { backup: string; restore: string; admin: string };

type Output = { out(line: string): void; err(line: string): void };
const stdio: Output = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/** Runs one command and answers its exit code (0 done, 1 refused, 2 usage). */
export async function runCommand(argv: readonly string[], names: CommandNames, io: Output = stdio): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === "backup") return await backup(io);
    if (command === "restore") return await restore(args, names, io);
    if (command === "admin") return await admin(args, names, io);
    io.err(`Commands: ${names.backup} | ${names.restore} <backup file> [--force] | ${names.admin} grant <email> | revoke <email> | list`);
    return 2;
  } catch (err) {
    if (err instanceof BackupRefusal || err instanceof ConfigError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}

async function backup(io: Output): Promise<number> {
  const env = loadBackupEnv();
  const made = await backupCommand(env);
  const by = made.by === "server" ? "made by the running server, " : "";
  io.out(`Backup written: ${made.file} (${(made.bytes / 1e6).toFixed(1)} MB, ${by}${(made.ms / 1000).toFixed(1)} s)`);
  io.out(
    `It holds the ${made.manifest.kind === "pglite" ? "embedded database" : "PostgreSQL database"}${made.manifest.uploads ? ", the uploads" : ""}${made.manifest.secrets.length ? ` and ${made.manifest.secrets.join(", ")}` : ""}; keep it private (it holds secrets).`,
  );
  if (!made.manifest.secrets.includes(AUTH_SECRET_FILE)) io.out("BETTER_AUTH_SECRET is not in DATA_DIR (set in the environment?): keep it with the backup, or sessions end after a restore.");
  if (made.removed.length) io.out(`Removed ${made.removed.length} older backup(s): BACKUP_KEEP=${env.backups.keep}.`);
  return 0;
}

async function restore(args: readonly string[], names: CommandNames, io: Output): Promise<number> {
  const files = args.filter((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--") && a !== "--force");
  // `npm run db:restore <file> --force` hands --force to npm, which passes it on as npm_config_force.
  const force = args.includes("--force") || process.env.npm_config_force === "true";
  if (files.length !== 1 || unknown.length) {
    io.err(`Usage: ${names.restore} <backup file> [--force]   (--force replaces data that is there)`);
    return 2;
  }
  const restored = await restoreBackup(loadBackupEnv(), files[0], { force });
  const m = restored.manifest;
  io.out(`Restored ${files[0]}: the ${m.kind === "pglite" ? "embedded database" : "PostgreSQL database"} of ${m.createdAt} (version ${m.appVersion}, ${m.migrations} migrations)${m.uploads ? ", the uploads" : ""}${m.secrets.length ? ` and ${m.secrets.join(", ")}` : ""} into ${restored.dataDir}.`);
  if (restored.keptAs) io.out(`The data folder as it was is kept as ${restored.keptAs}; remove it once the site runs as it should.`);
  io.out("Start the server: it applies the migrations this version has and the backup had not.");
  return 0;
}

async function admin(args: readonly string[], names: CommandNames, io: Output): Promise<number> {
  const usage = `usage: ${names.admin} grant <email> | revoke <email> | list`;
  const [command, email] = args;
  if (command !== "list" && command !== "grant" && command !== "revoke") {
    io.err(usage);
    return 2;
  }
  if (command !== "list" && (!email || !email.includes("@"))) {
    io.err(usage);
    return 2;
  }
  const env = loadEnv();
  let database: Database;
  try {
    database = await openConfiguredDatabase(env);
  } catch (err) {
    io.err(`Cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    if (command === "list") {
      const admins = await listRoleAdmins(database.db);
      io.out(admins.length ? admins.map((a) => a.email).join("\n") : "(no user holds the admin role)");
      return 0;
    }
    const changed = await setAdminRole(database.db, email, command === "grant");
    if (!changed) {
      io.err(`No user with the e-mail ${email}: they must sign up first.`);
      return 1;
    }
    io.out(command === "grant" ? `${email} is now an administrator.` : `${email} is no longer an administrator (ADMIN_EMAILS / ADMIN_USER_IDS still apply).`);
    return 0;
  } finally {
    await database.close();
  }
}
