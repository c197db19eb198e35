import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server";

/**
 * Debian's nginx as the reverse proxy in front of several instances (the rolling-deploy test): our
 * own process on a free loopback port, with its configuration, pid, logs and temporary files in a
 * folder of its own. It never touches, needs or stops a system nginx.
 */
export type RunningNginx = {
  url: string;
  port: number;
  /** Every request nginx answered, from its access log (one JSON object a line). */
  accessLog(): AccessLogEntry[];
  errorLog(): string;
  stop(): Promise<void>;
};

/**
 * One answered request: `upstream` lists every instance tried, `upstreamStatus` each one's answer;
 * `start` and `end` in epoch milliseconds (a WebSocket's line is written when it closes).
 */
export type AccessLogEntry = { method: string; uri: string; status: number; upstream: string[]; upstreamStatus: string[]; start: number; end: number };

export function nginxBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]) if (existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined;
}

/**
 * The proxy part of the configuration (docs/operations.md shows the same): instances that answer
 * 503 while they drain, or refuse connections once stopped, are skipped for the next one, and a
 * POST is never sent twice (nginx retries it only when it never reached an instance).
 */
export function proxyConfig(upstreams: string[], listen: string): string {
  return `map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      '';
  }

  upstream torepoke {
    # Shared by the worker processes: one 503 or refused connection takes the instance out for all.
    zone torepoke 64k;
${upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 32;
  }

  server {
    listen ${listen};
    client_max_body_size 12m;

    location / {
      proxy_pass http://torepoke;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # WebSocket (Socket.IO): the upgrade is passed on; other requests keep the upstream connection alive.
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      # A draining instance answers GET-like requests 503 and closes its listener once idle: try
      # the next instance. POST and PATCH are retried only when they never reached an instance.
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      # Socket.IO pings every 25 s; an idle chat socket is not a timeout.
      proxy_read_timeout 75s;
    }
  }`;
}

/** Starts nginx on `port` (a free one by default) in front of the instances on `upstreams`. */
export async function startNginx(upstreams: number[], port?: number): Promise<RunningNginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx is not installed");
  const prefix = mkdtempSync(path.join(tmpdir(), "torepoke-nginx-"));
  // nginx started as root runs its workers as nobody: they must reach the temporary folders.
  chmodSync(prefix, 0o755);
  port ??= await freePort();
  const conf = path.join(prefix, "nginx.conf");
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${name}_temp_path ${path.join(prefix, name)};`).join("\n");
  writeFileSync(
    conf,
    // Each chat socket holds two connections in nginx (the browser's and the instance's), for as
    // long as the player has a tab open: docs/operations.md section 4 sizes worker_connections.
    `worker_processes 2;
worker_rlimit_nofile 20000;
events { worker_connections 8192; }
http {
  log_format torepoke escape=json '{"method":"$request_method","uri":"$request_uri","status":$status,"upstream":"$upstream_addr","upstreamStatus":"$upstream_status","ms":$request_time,"end":$msec}';
  access_log ${path.join(prefix, "access.log")} torepoke;
${temp}
  ${proxyConfig(
    upstreams.map((p) => `127.0.0.1:${p}`),
    `127.0.0.1:${port}`,
  )}
}
`,
  );
  const pidFile = path.join(prefix, "nginx.pid");
  const errorLog = path.join(prefix, "error.log");
  const child = spawn(binary, ["-p", prefix, "-c", conf, "-e", errorLog, "-g", `daemon off; pid ${pidFile};`], { stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout!.on("data", (c: Buffer) => output.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  // Listening means a connection is accepted (no request: it would count in the access log).
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${output.join("")}${existsSync(errorLog) ? readFileSync(errorLog, "utf8") : ""}`);
    try {
      await new Promise<void>((resolve, reject) => {
        const probe = createConnection({ host: "127.0.0.1", port }, () => {
          probe.end();
          resolve();
        });
        probe.once("error", reject);
      });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`nginx did not start: ${output.join("")}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    accessLog: () =>
      readFileSync(path.join(prefix, "access.log"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const entry = JSON.parse(line) as { method: string; uri: string; status: number; upstream: string; upstreamStatus: string; ms: number; end: number };
          const list = (value: string) => value.split(/[,:]\s+/).filter((part) => part && part !== "-");
          const end = Math.round(entry.end * 1000);
          return {
            method: entry.method,
            uri: entry.uri,
            status: entry.status,
            upstream: list(entry.upstream),
            upstreamStatus: list(entry.upstreamStatus),
            start: end - Math.round(entry.ms * 1000),
            end,
          };
        }),
    errorLog: () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : ""),
    stop: async () => {
      // Our own master process, by its pid: QUIT lets it finish open requests.
      if (child.exitCode === null) child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
