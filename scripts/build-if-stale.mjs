// `npm start` runs this first: it builds the app when the build is missing or older than any
// source file, so a second start takes seconds instead of rebuilding. The build's own output
// (Vite's chunk table, ~170 lines) goes to <build>/build.log and a line says so; LOG_LEVEL=debug
// prints it here instead. A failed build prints all of it.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const SOURCES = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package.json", "package-lock.json", "tsconfig.json"].map((entry) => path.join(root, entry));
const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
const OUTPUT = path.join(buildDir, "server/index.js");
const LOG = path.join(buildDir, "build.log");

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

/** A path as the person at the terminal would type it. */
function shown(file) {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
const source = Math.max(...SOURCES.map(newest));
if (built > source && process.env.FORCE_BUILD !== "1") {
  console.log("Build is up to date.");
  process.exit(0);
}

console.log(`Building the app (${built ? "the sources changed since the last build" : "no build yet"})…`);
const started = Date.now();
// The CLI of the installed @react-router/dev, on the Node running this script (npm's Node 24),
// found through the package's own `bin` entry (its file name changed between major versions).
const devPackage = path.join(root, "node_modules/@react-router/dev");
const devBin = JSON.parse(readFileSync(path.join(devPackage, "package.json"), "utf8")).bin;
const command = [path.join(devPackage, typeof devBin === "string" ? devBin : devBin["react-router"]), "build"];
if (process.env.LOG_LEVEL === "debug") {
  const result = spawnSync(process.execPath, command, { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
// stdout and stderr into one file, in the order they were written; a temporary one, since
// React Router empties the build folder when it starts.
const scratch = mkdtempSync(path.join(tmpdir(), "torepoke-build-"));
const fd = openSync(path.join(scratch, "build.log"), "w");
const result = spawnSync(process.execPath, command, { cwd: root, stdio: ["ignore", fd, fd] });
closeSync(fd);
const output = readFileSync(path.join(scratch, "build.log"), "utf8") + (result.error ? `${result.error.message}\n` : "");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(buildDir, { recursive: true });
writeFileSync(LOG, output);
if (result.status !== 0) {
  process.stderr.write(output);
  process.stderr.write(`\nThe build failed (exit ${result.status ?? result.signal}); its output above is also in ${shown(LOG)}.\n`);
  process.exit(result.status || 1);
}
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s into ${shown(buildDir)}/ (the build's output is in ${shown(LOG)}; LOG_LEVEL=debug prints it here).`);
