import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "#tests/support/server.ts";

// A first start prints a few lines: what it built, the catalogue it loaded, where mail goes, where
// it listens and in which mode. The build's own output (Vite's chunk table) goes to build.log.
const root = path.resolve(import.meta.dirname, "../..");
const buildName = `build-quiet-${randomBytes(4).toString("hex")}`;
const buildDir = path.join(root, buildName);
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(buildDir, { recursive: true, force: true });
});

function buildIfStale(env: Record<string, string> = {}) {
  // From another working directory: the script finds the checkout from its own location.
  const result = spawnSync(process.execPath, [path.join(root, "scripts/build-if-stale.mjs")], { cwd: "/", encoding: "utf8", env: { ...process.env, BUILD_DIR: buildName, ...env } });
  return { status: result.status, lines: `${result.stdout}${result.stderr}`.split("\n").filter(Boolean) };
}

describe("a first start", () => {
  it("builds in two lines, keeps the build's output in build.log, then starts in a few lines", async () => {
    const first = buildIfStale({ FORCE_BUILD: "1" });
    expect(first.status).toBe(0);
    expect(first.lines).toHaveLength(2);
    expect(first.lines[0]).toMatch(/^Building the app \(no build yet\)…$/);
    expect(first.lines[1]).toMatch(new RegExp(`^Built in \\d+\\.\\d s into .*${buildName}/ \\(the build's output is in .*${buildName}/build\\.log; LOG_LEVEL=debug prints it here\\)\\.$`));
    const log = readFileSync(path.join(buildDir, "build.log"), "utf8");
    expect(log).toContain("building client environment for production");
    expect(log).toContain("building ssr environment for production");
    expect(log).toMatch(/✓ built in/);

    expect(buildIfStale().lines).toEqual(["Build is up to date."]);

    const server = await startServer({ BUILD_DIR: buildName });
    servers.push(server);
    const lines = server.logs.join("").split("\n").filter(Boolean);
    const upToListening = lines.slice(0, lines.findIndex((line) => line.includes('"msg":"listening"')) + 1);
    // The catalogue it loaded, where mail goes, where it listens (and in which mode); nothing else at info on a fresh data folder.
    expect(upToListening.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["card catalogue loaded", "mail delivery", "listening"]);
    expect(JSON.parse(upToListening[2])).toMatchObject({ mode: "production", db: "pglite" });
  }, 180_000);
});
