// `npm run db:restore <file> [--force]`: brings a backup back into DATA_DIR (and DATABASE_URL),
// the server stopped (docs/decisions/030-backups.md). The same command as a release folder's
// `./start restore <file> [--force]` (server/commands.ts).
import { runCommand } from "#server/commands.ts";
import { NPM_COMMAND_NAMES } from "./command-names";

process.exitCode = await runCommand(["restore", ...process.argv.slice(2)], NPM_COMMAND_NAMES);
