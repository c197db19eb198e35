// Process entry: the Express app, React Router and Socket.IO are built into one bundle by
// `npm run build` (vite.config.ts makes server/app.ts the SSR entry). `node server.js backup`,
// `restore <file> [--force]` and `admin …` run the operator's commands from the same bundle
// (server/commands.ts): a release folder's `./start backup` is that, without npm or the sources.
import { existsSync } from "node:fs";

// React, React DOM's server renderer and React Router pick their development or production build
// from NODE_ENV when they are first loaded, and Express reads it too: production unless the
// operator chose otherwise, set before the bundle (and with it those packages) is imported.
process.env.NODE_ENV ||= "production";

const COMMANDS = new Set(["backup", "restore", "admin"]);
const command = process.argv[2];
const entry = new URL(`./${process.env.BUILD_DIR ?? "build"}/server/index.js`, import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("The app is not built yet: run `npm run build` (or `npm start`, which builds first).\n");
  process.exit(1);
}
if (command && !COMMANDS.has(command)) {
  process.stderr.write(`Unknown command "${command}". The server takes none; the commands are: backup, restore <file> [--force], admin grant <email> | revoke <email> | list.\n`);
  process.exit(2);
}
const bundle = await import(entry.href);
if (command) {
  process.exitCode = await bundle.runCommand(process.argv.slice(2), { backup: "./start backup", restore: "./start restore", admin: "./start admin" });
} else {
  await bundle.start();
}
