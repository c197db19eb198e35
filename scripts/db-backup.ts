// `npm run db:backup`: one backup now, into BACKUP_DIR (default DATA_DIR/backups), while the
// server runs or not (docs/decisions/030-backups.md). The same command as a release folder's
// `./start backup` (server/commands.ts).
import { runCommand } from "#server/commands.ts";
import { NPM_COMMAND_NAMES } from "./command-names";

process.exitCode = await runCommand(["backup", ...process.argv.slice(2)], NPM_COMMAND_NAMES);
