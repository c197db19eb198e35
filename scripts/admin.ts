// `npm run admin -- grant <email>` / `revoke <email>` / `list`: the admin role in the database.
// (ADMIN_EMAILS / ADMIN_USER_IDS grant it through configuration instead; see README.)
import { openConfiguredDatabase, type Database } from "../app/db/client.server";
import { listRoleAdmins, setAdminRole } from "../app/features/users/users.server";
import { ConfigError, loadEnv } from "../app/lib/env.server";

const USAGE = "usage: npm run admin -- grant <email> | revoke <email> | list";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const [command, email] = process.argv.slice(2);
if (command !== "list" && !(command === "grant" || command === "revoke")) fail(USAGE);
if (command !== "list" && (!email || !email.includes("@"))) fail(USAGE);

let env;
try {
  env = loadEnv();
} catch (err) {
  fail(err instanceof ConfigError ? err.message : String(err));
}

let database: Database;
try {
  database = await openConfiguredDatabase(env);
} catch (err) {
  fail(`Cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
}

try {
  if (command === "list") {
    const admins = await listRoleAdmins(database.db);
    console.log(admins.length ? admins.map((a) => a.email).join("\n") : "(no user holds the admin role)");
  } else {
    const changed = await setAdminRole(database.db, email, command === "grant");
    if (!changed) {
      await database.close();
      fail(`No user with the e-mail ${email}: they must sign up first.`);
    }
    console.log(command === "grant" ? `${email} is now an administrator.` : `${email} is no longer an administrator (ADMIN_EMAILS / ADMIN_USER_IDS still apply).`);
  }
} finally {
  await database.close();
}
