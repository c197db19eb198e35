// `npm run release [-- <folder>]`: writes a self-contained release folder (default `release/`)
// that a process manager or a container image runs with one command, `<folder>/start`, from any
// working directory and with nothing else installed: the build, server.js, the migrations, the
// production dependencies and the Node binary of the `node` devDependency.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const started = Date.now();
// npm runs scripts from the package folder; a folder given on the command line is the caller's.
const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? path.join(root, "release"));
const staging = path.join(path.dirname(out), `.${path.basename(out)}.partial`);
const MARKER = "release.json";
/** Where the release being replaced waits until the new one is in place. */
const old = `${staging}.old`;

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

function step(title) {
  process.stdout.write(`▶ ${title} (at ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) fail(`${[command, ...args].join(" ")} failed (exit ${result.status ?? result.signal ?? result.error?.message})`);
}

const inside = (child, parent) => child === parent || child.startsWith(parent + path.sep);
if (inside(root, out) || ["build", "node_modules", "drizzle", "app", "server"].some((dir) => inside(out, path.join(root, dir)))) {
  fail(`${out} would overlap the checkout's own files: name another folder`);
}
// Replacing a folder deletes it: only one this script wrote, or an empty one.
if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(path.join(out, MARKER))) {
  fail(`${out} exists and is not a release folder (no ${MARKER}): name an empty or new folder`);
}

const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

// The heap flags of `npm start` (`NODE_OPTIONS="<flags> ${NODE_OPTIONS:-}" exec node server.js`),
// so the release runs as the checkout does; the operator's own NODE_OPTIONS still come last.
const startFlags = (/NODE_OPTIONS="([^"$]*)/.exec(pkg.scripts.start)?.[1] ?? "").split(/\s+/).filter((flag) => flag.startsWith("--"));
if (startFlags.length === 0) fail("found no Node flags in the start script of package.json");

// The `node` package's bin/node is a copy of its platform package's binary (no shim on Linux);
// prefer the platform package's own file and refuse anything that is a script.
function nodeBinary() {
  const candidates = [
    path.join(root, "node_modules/node/node_modules", `node-${process.platform}-${process.arch}`, "bin/node"),
    path.join(root, "node_modules/node/bin/node"),
  ];
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    if (readFileSync(file).subarray(0, 2).toString() === "#!") continue;
    const version = spawnSync(file, ["--version"], { encoding: "utf8" }).stdout?.trim();
    if (version !== `v${pkg.devDependencies.node}`) fail(`${file} is ${version}, package.json wants node ${pkg.devDependencies.node}: run npm install`);
    return file;
  }
  fail("the Node binary of the `node` devDependency is missing: run npm install");
}
const node = nodeBinary();

step("build (if stale)");
run(process.execPath, [path.join(root, "scripts/build-if-stale.mjs")], { cwd: root });
const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");

step(`copy the build, server.js, the migrations, the card catalogue and Node ${pkg.devDependencies.node}`);
// The folders an interrupted run may leave behind (the old release moved aside) may hold a data/:
// it is put back into the release, never deleted.
for (const left of [staging, old]) {
  if (!existsSync(path.join(left, "data"))) continue;
  if (existsSync(path.join(out, "data"))) fail(`${left}/data is a data folder an interrupted release left behind, and ${out}/data exists too: move one of them away by hand`);
  mkdirSync(out, { recursive: true });
  renameSync(path.join(left, "data"), path.join(out, "data"));
}
rmSync(staging, { recursive: true, force: true });
rmSync(old, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
// build.log is the build's own output (scripts/build-if-stale.mjs), not something the server reads.
cpSync(buildDir, path.join(staging, "build"), { recursive: true, filter: (file) => file !== path.join(buildDir, "build.log") });
cpSync(path.join(root, "server.js"), path.join(staging, "server.js"));
cpSync(path.join(root, "drizzle"), path.join(staging, "drizzle"), { recursive: true });
// The vendored card data the server loads on its first start (app/features/cards/catalogue-source.server.ts).
cpSync(path.join(root, "catalogue"), path.join(staging, "catalogue"), { recursive: true });
mkdirSync(path.join(staging, "bin"));
cpSync(node, path.join(staging, "bin/node"));
chmodSync(path.join(staging, "bin/node"), 0o755);

// Only what the server needs at run time: no devDependencies, no scripts (they need the sources).
const releasePkg = {
  name: pkg.name,
  version: pkg.version,
  private: true,
  description: pkg.description,
  type: pkg.type,
  engines: pkg.engines,
  dependencies: pkg.dependencies,
};
writeFileSync(path.join(staging, "package.json"), JSON.stringify(releasePkg, null, 2) + "\n");
cpSync(path.join(root, "package-lock.json"), path.join(staging, "package-lock.json"));

// The start command. Shell built-ins only (no dirname, no node on PATH): it finds its own folder,
// so it runs from any working directory; the server finds its build and migrations beside itself.
const start = `#!/bin/sh
# Starts Torepoke from this release folder, from any working directory: <this folder>/start
# Configuration is read from the environment (the README's table). The embedded database, uploads,
# mail and generated secrets go to DATA_DIR, by default data/ in this folder: point it at a
# volume that outlives the folder when a new release replaces it.
case $0 in */*) here=\${0%/*} ;; *) here=. ;; esac
here=$(cd -P -- "$here" && pwd -P) || exit 1
export NODE_OPTIONS="${startFlags.join(" ")} \${NODE_OPTIONS:-}"
exec "$here/bin/node" "$here/server.js" "$@"
`;
writeFileSync(path.join(staging, "start"), start, { mode: 0o755 });

step("install the production dependencies");
// npm's own environment from `npm run` (prefix, local prefix, Node 20's headers) would point the
// install back at the checkout: the child npm reads the user's configuration itself. It runs on
// Node 24, the Node the release runs, so engines and optional native packages are chosen for it.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_") || key === "npm_config_registry"));
const npmCli = process.env.npm_execpath && path.join(path.dirname(process.env.npm_execpath), "npm-cli.js");
const [npm, npmArgs] = npmCli && existsSync(npmCli) ? [process.execPath, [npmCli]] : ["npm", []];
run(npm, [...npmArgs, "install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: staging, env: npmEnv });

step("check that the server bundle loads with the release's own Node and packages");
// Importing the bundle resolves every package it imports (sharp's native binary, PGlite's WASM)
// from the release's node_modules alone; it starts nothing until start() is called.
run(path.join(staging, "bin/node"), ["--input-type=module", "-e", `await import(${JSON.stringify(path.join(staging, "build/server/index.js"))});`], {
  cwd: "/",
  env: { PATH: "/nonexistent", HOME: staging },
  timeout: 60_000,
});

function git(...args) {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}
const commit = git("rev-parse", "HEAD");
const release = { name: pkg.name, version: pkg.version, commit, modified: commit ? git("status", "--porcelain", "--untracked-files=no") !== "" : undefined, node: pkg.devDependencies.node, platform: `${process.platform}-${process.arch}`, createdAt: new Date().toISOString() };
writeFileSync(path.join(staging, MARKER), JSON.stringify(release, null, 2) + "\n");

// Swap the finished folder in; a data/ folder of the release it replaces is kept. Not under a
// server running from it: its database is open in data/.
if (existsSync(out)) {
  const lock = path.join(out, "data", "db.lock");
  const owner = existsSync(lock) ? Number(readFileSync(lock, "utf8").trim()) : 0;
  if (owner && isAlive(owner)) fail(`a server (process ${owner}) runs from ${out} with its data/ there: stop it first, or give it a DATA_DIR outside the release folder`);
  step(`replace the release in ${out}${existsSync(path.join(out, "data")) ? " (keeping its data/)" : ""}`);
  // The old release moves aside first and is deleted only once the new one and the data are in place.
  renameSync(out, old);
  renameSync(staging, out);
  if (existsSync(path.join(old, "data"))) renameSync(path.join(old, "data"), path.join(out, "data"));
  rmSync(old, { recursive: true, force: true });
} else {
  renameSync(staging, out);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

function size(target) {
  const result = spawnSync("du", ["-sh", target], { encoding: "utf8" });
  if (result.status === 0) return result.stdout.split("\t")[0];
  // No du: the sum of the files' sizes.
  const walk = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((sum, name) => sum + walk(path.join(p, name)), 0) : statSync(p).size);
  return `${(walk(target) / 1024 / 1024).toFixed(0)}M`;
}
process.stdout.write(
  `\nRelease written to ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s: ${size(out)} ` +
    `(Node binary ${size(path.join(out, "bin/node"))}, node_modules ${size(path.join(out, "node_modules"))}, build ${size(path.join(out, "build"))}).\n` +
    `Start it with: ${path.join(out, "start")}\n`,
);
