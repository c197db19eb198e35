import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type RunningServer = {
  url: string;
  /** NODE_ENV of the server process (production unless the caller set another). */
  mode: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

const root = path.resolve(import.meta.dirname, "../..");

/** Node's flags from `npm start` (the V8 heap sizes the server runs with), so tests and benches run the server as it is deployed. */
export function startFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  // `NODE_OPTIONS="<flags> ${NODE_OPTIONS:-}" exec node server.js`: the flags before the operator's own.
  const flags = /NODE_OPTIONS="([^"$]*)/.exec(scripts.start)?.[1] ?? "";
  return flags.split(/\s+/).filter((flag) => flag.startsWith("--"));
}

/**
 * Starts the built app (`node <checkout>/server.js`) on a free port and waits until it listens;
 * from the checkout unless `cwd` names another working directory.
 */
export async function startServer(env: Record<string, string> = {}, options: { cwd?: string; flags?: string[] } = {}): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "torepoke-test-"));
  const wantedPort = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${wantedPort}`;
  // Every browser test signs up from 127.0.0.1: lift the per-IP auth limit unless a test sets it.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "info", SITE_URL: url, AUTH_RATE_LIMIT_MAX: "10000", ANALYTICS_RATE_LIMIT: "100000", ...env, PORT: String(wantedPort), DATA_DIR: dataDir };
  const child = spawn(process.execPath, [...startFlags(), ...(options.flags ?? []), path.join(root, "server.js")], {
    cwd: options.cwd ?? root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  child.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
  // Ready means /healthz answers, whatever LOG_LEVEL hides.
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 90_000;
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}:\n${logs.join("")}`));
    child.once("exit", onExit);
    const poll = async () => {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          child.off("exit", onExit);
          return resolve();
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        // Never leave a half-started server behind.
        child.off("exit", onExit);
        child.kill("SIGKILL");
        return reject(new Error(`server did not start:\n${logs.join("")}`));
      }
      setTimeout(poll, 100);
    };
    void poll();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url,
    mode: childEnv.NODE_ENV ?? "unset",
    port: wantedPort,
    dataDir,
    process: child,
    logs,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
