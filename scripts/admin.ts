// `npm run admin -- grant <email>` / `revoke <email>` / `list`: the admin role in the database.
// (ADMIN_EMAILS / ADMIN_USER_IDS grant it through configuration instead; see README.) The same
// command as a release folder's `./start admin …` (server/commands.ts).
import { runCommand } from "#server/commands.ts";
import { NPM_COMMAND_NAMES } from "./command-names";

process.exitCode = await runCommand(["admin", ...process.argv.slice(2)], NPM_COMMAND_NAMES);
