// `npm start` runs this first: it builds the app when the build is missing or older than any
// source file, so a second start takes seconds instead of rebuilding.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "server", "vite.config.ts", "react-router.config.ts", "package.json", "package-lock.json", "tsconfig.json"];
const OUTPUT = `${process.env.BUILD_DIR ?? "build"}/server/index.js`;

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
const source = Math.max(...SOURCES.map(newest));
if (built > source && process.env.FORCE_BUILD !== "1") {
  console.log("Build is up to date.");
} else {
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
