import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder the site is installed in (a checkout or a release folder: server.js, drizzle/, the
 * build, and data/ unless DATA_DIR names another), found from this file and never from the working
 * directory, since a process manager may start `node /srv/torepoke/server.js` from /. This code
 * runs from app/lib/ (scripts, tests) or bundled under build/server/: the nearest folder above it
 * that holds server.js is the install folder either way.
 */
export const INSTALL_DIR = findInstallDir(path.dirname(fileURLToPath(import.meta.url)));

function findInstallDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "server.js"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no server.js in ${from} or any folder above it: the installed files are incomplete`);
  }
}
