import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startServer, type RunningServer } from "#tests/support/server.ts";
import { until } from "#tests/support/wait.ts";

const root = path.resolve(import.meta.dirname, "../..");
const started: ChildProcess[] = [];
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const s of servers) await s.stop();
});

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** `npm start` as an operator runs it (the build is already fresh: prestart only checks it). */
async function npmStart(): Promise<{ npm: ChildProcess; url: string; siteUrl: string; logs: string[] }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const siteUrl = "https://torepoke.example";
  const npm = spawn("npm", ["start"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), SITE_URL: siteUrl, LOG_LEVEL: "info", DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-npm-start-")) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(npm);
  const logs: string[] = [];
  npm.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
  npm.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
  await until(() => answers(url), `npm start to answer:\n${logs.join("")}`, 90_000);
  return { npm, url, siteUrl, logs };
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stopped by ${signal} sent to npm alone, stops the server too`, async () => {
      const { npm, url, siteUrl, logs } = await npmStart();
      const exited = new Promise((resolve) => npm.once("exit", resolve));
      npm.kill(signal);
      await exited;
      // The server shut down cleanly, not left answering as an orphan.
      await until(async () => !(await answers(url)), "the server to stop answering", 15_000);
      await until(() => logs.join("").includes('"msg":"stopped"'), "the server's stopped line");
      const output = logs.join("");
      expect(output).toContain(`"signal":"${signal}"`);
      // The start-up log: the listening line names SITE_URL, and nothing warns about deprecations or future flags.
      const listening = output.split("\n").find((line) => line.includes('"msg":"listening"'));
      expect(JSON.parse(listening!)).toMatchObject({ url: siteUrl, mode: "production" });
      expect(output).not.toMatch(/deprecat|Future Flag|ExperimentalWarning|\(node:\d+\)/i);
    }, 120_000);
  }
});

describe("request ids", () => {
  it("each request's JSON log line carries the id its answer's X-Request-Id header names", async () => {
    const server = await startServer({ LOG_LEVEL: "info" });
    servers.push(server);
    const res = await fetch(`${server.url}/trades`);
    await res.arrayBuffer();
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const other = (await fetch(`${server.url}/healthz`)).headers.get("x-request-id");
    expect(other).not.toBe(id);
    await until(() => server.logs.join("").includes(id!), "the request's log line");
    const line = server.logs.join("").split("\n").find((l) => l.includes(id!))!;
    expect(JSON.parse(line)).toMatchObject({ msg: "request", requestId: id, method: "GET", path: "/trades", status: 200 });
  }, 120_000);
});
