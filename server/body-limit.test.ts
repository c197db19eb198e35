import { once } from "node:events";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyLimitFor as limitFor, DEFAULT_BODY_LIMIT_BYTES } from "#app/lib/body-limits.ts";
import { bodyLimit } from "./body-limit";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** An app whose handler counts the bytes it read, behind the limit. */
async function serve() {
  const app = express();
  let bytesRead = 0;
  app.use(bodyLimit({ routes: [{ path: "/api/import", maxBytes: 1024 * 1024 }, { path: "/api/stream/", maxBytes: 10 * 1024 * 1024, streaming: true }, { path: "/login", maxBytes: 16 * 1024 }] }));
  app.use(async (req, res) => {
    for await (const chunk of req) bytesRead += (chunk as Buffer).length;
    res.json({ read: bytesRead });
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { base, bytesRead: () => bytesRead };
}

/** Sends headers that announce a body, then only a little of it: an answer proves nothing waited for the rest. */
function announce(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers["content-type"]) }));
    });
    req.on("error", reject);
    req.write("x".repeat(1000));
    // Never ended: the server must answer without reading the rest.
  });
}

describe("body limit", () => {
  it("gives a page's data request (a form the page's script posts) the page's own limit", async () => {
    const app = await serve();
    const res = await announce(app.base, "/login.data", { "content-type": "application/x-www-form-urlencoded", "content-length": String(17 * 1024) });
    expect(res.status).toBe(413);
    expect(app.bytesRead()).toBe(0);
  });

  it("answers 413 with {error} to an API body declared past the limit, without reading it", async () => {
    const app = await serve();
    const res = await announce(app.base, "/api/comments", { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: "送信された内容が大きすぎます（上限 256 KB）。内容を減らしてもう一度お試しください。", code: "too_large" });
    expect(app.bytesRead()).toBe(0);
  });

  it("answers a page form with a Japanese page, or English with the language cookie", async () => {
    const app = await serve();
    const ja = await announce(app.base, "/profile", { "content-type": "application/x-www-form-urlencoded", "content-length": String(10 * 1024 * 1024) });
    expect(ja.status).toBe(413);
    expect(ja.type).toContain("text/html");
    expect(ja.body).toContain("送信された内容が大きすぎます（上限 256 KB）");
    const en = await announce(app.base, "/profile", { "content-type": "application/x-www-form-urlencoded", "content-length": String(10 * 1024 * 1024), cookie: "lang=en" });
    expect(en.body).toContain("What you sent is too large (at most 256 KB)");
  });

  it("lets a body within the limit through, and gives a route its own larger limit", async () => {
    const app = await serve();
    const small = await fetch(`${app.base}/api/comments`, { method: "POST", body: "x".repeat(DEFAULT_BODY_LIMIT_BYTES) });
    expect(await small.json()).toEqual({ read: DEFAULT_BODY_LIMIT_BYTES });
    const big = await fetch(`${app.base}/api/import`, { method: "POST", body: "x".repeat(512 * 1024) });
    expect(big.status).toBe(200);
    const tooBig = await announce(app.base, "/api/import", { "content-length": String(1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body).error).toContain("1 MB");
  });

  it("refuses a chunked body (411) unless its route bounds the stream itself", async () => {
    const app = await serve();
    const chunked = await announce(app.base, "/api/comments", { "transfer-encoding": "chunked", "content-type": "application/json" });
    expect(chunked.status).toBe(411);
    expect(JSON.parse(chunked.body)).toEqual({ error: expect.stringContaining("Content-Length"), code: "length_required" });
    expect(limitFor("/api/stream/photos", [{ path: "/api/stream/", maxBytes: 5, streaming: true }], 1)).toMatchObject({ streaming: true, maxBytes: 5 });
    expect(limitFor("/api/streamer", [{ path: "/api/stream/", maxBytes: 5 }], 1)).toMatchObject({ maxBytes: 1 });
  });

  it("leaves reads alone", async () => {
    const app = await serve();
    const res = await fetch(`${app.base}/api/comments`);
    expect(await res.json()).toEqual({ read: 0 });
  });
});
