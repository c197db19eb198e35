import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#tests/support/server.ts";
import { until } from "#tests/support/wait.ts";

const root = path.resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(path.join(tmpdir(), "torepoke-release-"));
const started: ChildProcess[] = [];
let release: string;

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm run release -- <folder>` as an operator runs it; resolves with its output. */
function makeRelease(folder: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const npm = spawn("npm", ["run", "release", "--", folder], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    npm.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    npm.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    npm.once("error", reject);
    npm.once("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`npm run release exited with ${code}:\n${output}`))));
  });
}

/**
 * `<release>/start` from `/` with what a bare machine has: no node or npm on PATH (an empty
 * folder is the whole PATH), no NODE_OPTIONS, nothing of the checkout.
 */
async function startRelease(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const emptyPath = mkdtempSync(path.join(scratch, "path-"));
  const child = spawn(path.join(release, "start"), [], {
    cwd: "/",
    env: { PATH: emptyPath, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  const logs: string[] = [];
  child.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the release exited with ${child.exitCode}:\n${logs.join("")}`);
      try {
        return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).status === 200;
      } catch {
        return false;
      }
    },
    `the release to answer /healthz:\n${logs.join("")}`,
    90_000,
  );
  return { child, url, logs, exited };
}

async function expectPage(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await res.text()).toContain("トレポケ");
}

describe("npm run release", () => {
  beforeAll(async () => {
    const made = path.join(scratch, "made");
    const output = await makeRelease(made);
    expect(output).toContain(`Start it with: ${path.join(made, "start")}`);
    // Moved after it was made: nothing in it points at where it was written or at the checkout.
    release = path.join(scratch, "moved", "torepoke");
    mkdirSync(path.dirname(release));
    renameSync(made, release);
  }, 300_000);

  it("holds the build, the migrations, Node 24 and production dependencies only", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const file of ["start", "server.js", "build/server/index.js", "drizzle/meta/_journal.json", "package-lock.json", "bin/node"]) {
      expect(existsSync(path.join(release, file)), file).toBe(true);
    }
    expect(existsSync(path.join(release, "node_modules/sharp"))).toBe(true);
    for (const dev of ["vite", "vitest", "typescript", "@react-router/dev", "node"]) {
      expect(existsSync(path.join(release, "node_modules", dev)), dev).toBe(false);
    }
    const releasePkg = JSON.parse(readFileSync(path.join(release, "package.json"), "utf8"));
    expect(releasePkg.dependencies).toEqual(pkg.dependencies);
    expect(releasePkg.devDependencies).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(release, "release.json"), "utf8"))).toMatchObject({ node: pkg.devDependencies.node });
  });

  it("starts from / on a fresh data folder, answers /healthz, / and /cards, and stops by its PID", async () => {
    const dataDir = path.join(scratch, "data");
    const server = await startRelease({ DATA_DIR: dataDir });
    // `start` execs the release's own Node: the PID is the server's, running bin/node.
    expect(readlinkSync(`/proc/${server.child.pid}/exe`)).toBe(realpathSync(path.join(release, "bin/node")));
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toMatchObject({ status: "ok" });
    await expectPage(`${server.url}/`);
    await expectPage(`${server.url}/cards`);
    // The fresh data folder got the migrated database; the release's own data/ stayed unused.
    expect(existsSync(path.join(dataDir, "db"))).toBe(true);
    expect(existsSync(path.join(release, "data"))).toBe(false);
    const listening = server.logs.join("").split("\n").find((line) => line.includes('"msg":"listening"'));
    expect(JSON.parse(listening!)).toMatchObject({ mode: "production", db: "pglite" });

    // The operator's commands come with the folder: a backup while it runs, made by the server.
    const backup = spawnSync(path.join(release, "start"), ["backup"], { cwd: "/", env: { PATH: mkdtempSync(path.join(scratch, "path-")), DATA_DIR: dataDir }, encoding: "utf8", timeout: 60_000 });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written: .+torepoke-.+-pglite\.tar\.gz \(.+made by the running server/m);
    expect(readdirSync(path.join(dataDir, "backups")).filter((f) => f.endsWith(".tar.gz"))).toHaveLength(1);
    const usage = spawnSync(path.join(release, "start"), ["restore"], { cwd: "/", env: { PATH: mkdtempSync(path.join(scratch, "path-")), DATA_DIR: dataDir }, encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Usage: ./start restore <backup file> [--force]");

    process.kill(server.child.pid!, "SIGTERM");
    expect(await server.exited).toBe(0);
  }, 120_000);

  it("keeps its data in data/ inside the folder when DATA_DIR is unset", async () => {
    const server = await startRelease({});
    expect(existsSync(path.join(release, "data/db"))).toBe(true);
    await expectPage(`${server.url}/`);
    process.kill(server.child.pid!, "SIGTERM");
    expect(await server.exited).toBe(0);
  }, 120_000);
});
