import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// The collection endpoint through the real Express app: what its body parser refuses is the
// client's fault, answered with its own status in the one refusal shape and not logged as an error.
const SITE = "http://torepoke.test";
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
const lines: { level: string; msg: string; status?: number; reason?: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-analytics-http-")), BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), SITE_URL: SITE });
  const log = createLogger("info", (line) => void lines.push(JSON.parse(line)));
  server = await startHttpApp({ env, database, routes: {}, log });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

const errorsLogged = () => lines.filter((l) => l.level === "error");

describe("POST /api/event body refusals", () => {
  it("answers an unsupported charset 415 as {error, code}, logged as a refusal and not as an error", async () => {
    const res = await fetch(`${server.base}/api/event`, {
      method: "POST",
      headers: { origin: SITE, "content-type": "text/plain; charset=x-klingon", cookie: "lang=ja" },
      body: '{"t":"pv","u":"/"}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: "送信された内容の形式（文字コードなど）には対応していません。", code: "unsupported_media_type" });
    expect(lines).toContainEqual(expect.objectContaining({ level: "info", msg: "request refused", status: 415, reason: "charset.unsupported" }));
    expect(errorsLogged()).toEqual([]);
  });

  it("answers an unknown content encoding 415 and a well-formed hit still 204", async () => {
    const res = await fetch(`${server.base}/api/event`, { method: "POST", headers: { origin: SITE, "content-type": "text/plain", "content-encoding": "x-nope" }, body: "{}" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "unsupported_media_type" });
    const ok = await fetch(`${server.base}/api/event`, { method: "POST", headers: { origin: SITE, "content-type": "text/plain" }, body: '{"t":"pv","u":"/"}' });
    expect(ok.status).toBe(204);
    expect(errorsLogged()).toEqual([]);
  });

  it("logs a beacon aborted mid-body as a refusal, not as an unhandled error", async () => {
    const { port } = new URL(server.base);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(`POST /api/event HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${SITE}\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n{"t":"pv"`);
    // A request sent after it has gone through the same middleware: by then the server is reading the first body.
    const after = await fetch(`${server.base}/api/event`, { method: "POST", headers: { origin: SITE, "content-type": "text/plain" }, body: '{"t":"pv","u":"/"}' });
    expect(after.status).toBe(204);
    socket.destroy();
    await vi.waitFor(() => expect(lines).toContainEqual(expect.objectContaining({ level: "info", msg: "request refused", status: 400, reason: "request.aborted" })), { timeout: 10_000 });
    expect(errorsLogged()).toEqual([]);
  });
});
