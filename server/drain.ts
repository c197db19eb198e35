import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Server as SocketServer } from "socket.io";
import { answerRestarting } from "./edge-answer";

/**
 * Draining an instance that is being stopped (server/app.ts shutdown), in front of everything else
 * on the HTTP server (Express and Socket.IO's own request and upgrade handlers).
 *
 * A proxy with passive health checks only (open-source nginx) learns that an instance is going
 * away from its answers, and retries a request elsewhere only when that is safe: a method that
 * may be repeated (GET, HEAD, PUT, DELETE, OPTIONS), or one never sent. So, from begin():
 * - /healthz answers 503 {"status":"draining"} (load balancers that poll it take the instance out);
 * - a new request of a repeatable method, and every WebSocket upgrade, is answered 503 without
 *   being handled: nginx (`proxy_next_upstream … http_503`) sends it to another instance and marks
 *   this one failed, so it stops sending it anything;
 * - a POST or PATCH is handled to the end, as before: it may already have done its work when
 *   nginx could retry it, so it is never refused after reaching us;
 * - every answer closes its connection, so no keep-alive connection carries more work here;
 * - Socket.IO connections are closed at the transport, which clients take as a lost connection
 *   and reconnect (through the proxy, to another instance); a server-side disconnect would not.
 * The listener itself stays open until requests stop arriving (settled()): a connection refused
 * once it closes is retried elsewhere by nginx, but one that arrived just before the close would be
 * reset with its request already sent. Decision record: docs/decisions/031-draining-an-instance-on-sigterm.md.
 */
export type Drain = {
  begin(): void;
  /** Resolves once no request or upgrade has arrived for `quietMs`, or after `maxMs`. */
  settled(quietMs: number, maxMs: number): Promise<void>;
};

const REPEATABLE = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);

export function attachDrain(server: Server, io: SocketServer): Drain {
  let draining = false;
  let lastArrival = 0;
  // Socket.IO's transports; closing one makes its client reconnect (engine.io's own list is protected).
  const transports = new Set<{ close(): void; once(event: "close", listener: () => void): void }>();
  io.engine.on("connection", (conn: { close(): void; once(event: "close", listener: () => void): void }) => {
    transports.add(conn);
    conn.once("close", () => transports.delete(conn));
  });

  const requestHandlers = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const upgradeHandlers = server.listeners("upgrade") as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners("request");
  server.removeAllListeners("upgrade");

  // Answers being written: when draining begins, each closes its connection once it is done.
  const inFlight = new Set<ServerResponse>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      lastArrival = Date.now();
      if (req.url === "/healthz" || req.url?.startsWith("/healthz?")) return void answerDraining(res);
      if (REPEATABLE.has(req.method ?? "GET")) return answerRestarting(req, res);
      res.setHeader("Connection", "close");
    } else {
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
    }
    for (const handle of requestHandlers) handle.call(server, req, res);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (draining) {
      lastArrival = Date.now();
      socket.on("error", () => {});
      socket.end("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    for (const handle of upgradeHandlers) handle.call(server, req, socket, head);
  });

  return {
    begin() {
      if (draining) return;
      draining = true;
      lastArrival = Date.now();
      for (const res of inFlight) closeWhenDone(res);
      for (const conn of transports) conn.close();
    },
    async settled(quietMs, maxMs) {
      const until = Date.now() + maxMs;
      for (;;) {
        const wait = Math.min(lastArrival + quietMs, until) - Date.now();
        if (wait <= 0) return;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
  };
}

/** A keep-alive connection left idle after the close would wait for its timeout (or the grace cut-off). */
function closeWhenDone(res: ServerResponse): void {
  if (!res.headersSent) return void res.setHeader("Connection", "close");
  const socket = res.socket;
  res.once("finish", () => socket?.end());
}

function answerDraining(res: ServerResponse): void {
  const body = JSON.stringify({ status: "draining" });
  res.writeHead(503, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store", Connection: "close" });
  res.end(body);
}
