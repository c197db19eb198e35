import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startFlags, startServer, type RunningServer } from "#tests/support/server.ts";
import { until } from "#tests/support/wait.ts";

// A process manager starts `node /srv/torepoke/server.js` from whatever working directory it
// has, often /: the migrations, the build and the default data folder are found from the
// installed files (app/lib/install-dir.server.ts), never from the working directory.
const root = path.resolve(import.meta.dirname, "../..");
const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
const servers: RunningServer[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const server of servers) await server.stop();
});

/** What only a migrated database with the catalogue in it answers. */
async function expectCatalogue(url: string) {
  const res = await fetch(`${url}/api/cards/search?q=${encodeURIComponent("ピカチュウ")}`);
  expect(res.status).toBe(200);
  expect(await res.text()).toContain("ピカチュウ");
  const page = await fetch(`${url}/trades`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("トレポケ");
}

describe("started from another working directory", () => {
  it("node <checkout>/server.js from / migrates a fresh data folder and serves", async () => {
    const server = await startServer({}, { cwd: "/" });
    servers.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await expectCatalogue(server.url);
    expect(existsSync(path.join(server.dataDir, "db"))).toBe(true);
    const output = server.logs.join("");
    expect(output).toContain('"msg":"listening"');
    expect(output).not.toMatch(/"level":"(warn|error)"/);
  });

  it("without DATA_DIR, a copy of the installed files keeps its data in its own data/ folder, not in the working directory's", async () => {
    // The files an install has (the release folder has the same layout), its packages linked in.
    const install = mkdtempSync(path.join(tmpdir(), "torepoke-install-"));
    cpSync(path.join(root, "server.js"), path.join(install, "server.js"));
    cpSync(path.join(root, "package.json"), path.join(install, "package.json"));
    cpSync(path.join(root, "drizzle"), path.join(install, "drizzle"), { recursive: true });
    cpSync(path.join(root, "catalogue"), path.join(install, "catalogue"), { recursive: true });
    cpSync(buildDir, path.join(install, "build"), { recursive: true });
    symlinkSync(path.join(root, "node_modules"), path.join(install, "node_modules"));
    const cwd = mkdtempSync(path.join(tmpdir(), "torepoke-cwd-"));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), SITE_URL: url, LOG_LEVEL: "info" };
    delete env.DATA_DIR;
    delete env.BUILD_DIR;
    const child = spawn(process.execPath, [...startFlags(), path.join(install, "server.js")], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const logs: string[] = [];
    child.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
    child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${logs.join("")}`);
        return fetch(`${url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        );
      },
      `the copy to answer /healthz:\n${logs.join("")}`,
      90_000,
    );
    await expectCatalogue(url);
    expect(readdirSync(path.join(install, "data")).toSorted()).toEqual(expect.arrayContaining(["auth-secret", "db", "vapid.json"]));
    expect(readdirSync(cwd)).toEqual([]);
    // Mail goes to the install's data folder too, and the log says so.
    expect(logs.join("")).toContain(`"folder":${JSON.stringify(path.join(install, "data", "mail"))}`);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("an invalid TRUST_PROXY stops start-up with one line naming it", async () => {
    const child = spawn(process.execPath, [path.join(root, "server.js")], {
      cwd: "/",
      env: { ...process.env, NODE_ENV: "production", TRUST_PROXY: "true", DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-bad-proxy-")) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'Invalid configuration: TRUST_PROXY must be a hop count (0 to 99) or comma-separated proxy addresses or CIDR ranges, which may include loopback, linklocal, uniquelocal (got "true")\n',
    );
  });
});
