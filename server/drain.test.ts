import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { Server as SocketServer } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { attachDrain, type Drain } from "./drain";

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

let server: Server;
let io: SocketServer;
let clients: Socket[] = [];
const release = new Set<() => void>();

afterEach(async () => {
  for (const client of clients) client.close();
  clients = [];
  for (const go of release) go();
  release.clear();
  await new Promise<void>((resolve) => io.close(() => resolve()));
});

/** A server like ours: its own routes, Socket.IO on the same port, the drain in front of both. */
async function start(): Promise<{ url: string; drain: Drain }> {
  server = createServer((req, res) => {
    // /slow answers when the test lets it.
    if (req.url === "/slow") return void release.add(() => res.end("slow done"));
    res.end(`${req.method} ${req.url}`);
  });
  server.keepAliveTimeout = 65_000;
  io = new SocketServer(server, { serveClient: false });
  const drain = attachDrain(server, io);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, drain };
}

function send(url: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(method === "POST" ? "{}" : undefined);
  });
}

describe("draining an instance that is being stopped", () => {
  it("answers /healthz and GET-like requests 503 for the proxy to retry elsewhere, and handles a POST to the end", async () => {
    const { url, drain } = await start();
    expect(await send(url, "GET", "/cards")).toMatchObject({ status: 200, body: "GET /cards" });
    drain.begin();

    const health = await send(url, "GET", "/healthz");
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toEqual({ status: "draining" });
    for (const method of ["GET", "HEAD", "DELETE", "PUT", "OPTIONS"]) {
      const refused = await send(url, method, "/api/cards", { accept: "application/json" });
      expect(refused.status, method).toBe(503);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.headers.connection).toBe("close");
      if (method !== "HEAD") expect(JSON.parse(refused.body), method).toEqual({ error: "サーバーを再起動しています。少し待ってからもう一度お試しください。", code: "restarting" });
    }
    // A page request gets the short page, in the visitor's language.
    const page = await send(url, "GET", "/trades", { cookie: "lang=en" });
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("The server is restarting.");

    // A POST may already have done its work if a proxy sent it again: it is handled, then the connection closes.
    const post = await send(url, "POST", "/api/trades", { "content-type": "application/json" });
    expect(post).toMatchObject({ status: 200, body: "POST /api/trades" });
    expect(post.headers.connection).toBe("close");
  });

  it("a request under way when draining begins is answered in full, and its connection then closes", async () => {
    const { url, drain } = await start();
    const slow = send(url, "GET", "/slow");
    await expect.poll(() => release.size).toBe(1);
    drain.begin();
    for (const go of release) go();
    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, body: "slow done" });
    expect(answer.headers.connection).toBe("close");
  });

  it("Socket.IO clients lose their transport (so they reconnect, elsewhere) and a new upgrade is refused", async () => {
    const { url, drain } = await start();
    const client = connect(url, { transports: ["websocket"], reconnection: false });
    clients.push(client);
    await new Promise<void>((resolve) => client.once("connect", () => resolve()));
    const reason = new Promise<string>((resolve) => client.once("disconnect", resolve));
    drain.begin();
    // Not "io server disconnect": after that a Socket.IO client would not reconnect on its own.
    expect(await reason).toBe("transport close");

    const late = connect(url, { transports: ["websocket"], reconnection: false });
    clients.push(late);
    const refused = await new Promise<Error>((resolve) => late.once("connect_error", resolve));
    expect(String((refused as Error & { description?: { message?: string } }).description?.message ?? refused.message)).toMatch(/503|websocket error/i);
  });

  it("settles once requests have stopped arriving for the quiet time", async () => {
    const { url, drain } = await start();
    drain.begin();
    let settledAt = 0;
    const settled = drain.settled(300, 10_000).then(() => (settledAt = Date.now()));
    let lastSent = 0;
    for (let i = 0; i < 5; i++) {
      await send(url, "GET", "/healthz");
      lastSent = Date.now();
      expect(settledAt).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await settled;
    expect(settledAt - lastSent).toBeGreaterThanOrEqual(300 - 5);
  });
});
