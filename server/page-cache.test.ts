import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "#tests/support/wait.ts";
import { createPageCache, pageCacheKey, showsBoard, type PageCacheOptions } from "./page-cache";

type Render = (req: express.Request, res: express.Response) => void | Promise<void>;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** An Express app with a per-request nonce, the cache, and a counting renderer behind it. */
async function serve(render: Render, options: Partial<PageCacheOptions> = {}) {
  const cache = createPageCache({ ttlSeconds: 5, ...options });
  let renders = 0;
  let nonces = 0;
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = `nonce${++nonces}AAAA==`;
    next();
  });
  app.use(cache.middleware);
  app.use(async (req, res) => {
    renders++;
    await render(req, res);
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return { base, cache, renders: () => renders, arrived: () => nonces };
}

const page: Render = (req, res) => {
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("cache-control", "private, no-store");
  const nonce = res.locals.cspNonce as string;
  // Streamed in pieces, as React Router does.
  res.write(`<html><script nonce="${nonce}">a()</script>`);
  res.write(`<p>${req.originalUrl} ページ</p>`);
  res.end(`<script nonce="${nonce}">b()</script></html>`);
};

describe("page cache", () => {
  it("serves a signed-out visitor's second request from the first render, with its own nonce", async () => {
    const app = await serve(page);
    const first = await fetch(`${app.base}/trades?give=A1-001`);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(await first.text()).toBe('<html><script nonce="nonce1AAAA==">a()</script><p>/trades?give=A1-001 ページ</p><script nonce="nonce1AAAA==">b()</script></html>');
    const second = await fetch(`${app.base}/trades?give=A1-001`);
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("cache-control")).toBe("private, no-store");
    expect(await second.text()).toBe('<html><script nonce="nonce2AAAA==">a()</script><p>/trades?give=A1-001 ページ</p><script nonce="nonce2AAAA==">b()</script></html>');
    expect(app.renders()).toBe(1);
    // Another query string is another page.
    await fetch(`${app.base}/trades?give=A1-002`);
    expect(app.renders()).toBe(2);
  });

  it("never reads or fills it for a request with a session cookie, but keeps one per language", async () => {
    const app = await serve(page);
    const signedIn = { cookie: "better-auth.session_token=abc.def" };
    await fetch(`${app.base}/trades`, { headers: signedIn });
    await fetch(`${app.base}/trades`, { headers: signedIn });
    expect(app.renders()).toBe(2);
    await fetch(`${app.base}/trades`);
    const afterAnonymous = await fetch(`${app.base}/trades`, { headers: signedIn });
    expect(afterAnonymous.headers.get("x-page-cache")).toBeNull();
    expect(app.renders()).toBe(4);
    // The language cookie alone still shares renders, one per language.
    await fetch(`${app.base}/trades`, { headers: { cookie: "lang=en" } });
    expect((await fetch(`${app.base}/trades`, { headers: { cookie: "lang=en" } })).headers.get("x-page-cache")).toBe("hit");
    expect((await fetch(`${app.base}/trades`, { headers: { cookie: "lang=ja" } })).headers.get("x-page-cache")).toBe("hit");
    expect(app.renders()).toBe(5);
  });

  it("keeps only 200 answers without Set-Cookie, on the listed paths", async () => {
    const app = await serve((req, res) => {
      if (req.path === "/cards/missing") return void res.status(404).end("none");
      if (req.path === "/cards/cookie") {
        res.setHeader("set-cookie", "x=1");
        return void res.end("with cookie");
      }
      res.end("ok");
    });
    for (const path of ["/cards/missing", "/cards/cookie", "/profile", "/api/trades/matches", "/trades/new"]) {
      await fetch(`${app.base}${path}`);
      const again = await fetch(`${app.base}${path}`);
      expect(again.headers.get("x-page-cache"), path).not.toBe("hit");
    }
    expect(app.renders()).toBe(10);
    const post = await fetch(`${app.base}/api/trades`, { method: "POST" });
    expect(post.headers.get("x-page-cache")).toBeNull();
  });

  it("forgets an answer after its TTL and is off at 0 seconds", async () => {
    let clock = 1_000_000;
    const app = await serve(page, { now: () => clock });
    await fetch(`${app.base}/`);
    clock += 4_999;
    expect((await fetch(`${app.base}/`)).headers.get("x-page-cache")).toBe("hit");
    clock += 1;
    expect((await fetch(`${app.base}/`)).headers.get("x-page-cache")).toBe("miss");
    await close?.();
    const off = await serve(page, { ttlSeconds: 0 });
    await fetch(`${off.base}/`);
    await fetch(`${off.base}/`);
    expect(off.renders()).toBe(2);
  });

  it("renders a page once for concurrent misses", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const app = await serve(async (req, res) => {
      await gate;
      page(req, res);
    });
    const all = Promise.all(Array.from({ length: 5 }, () => fetch(`${app.base}/cards?pack=dialga`).then(async (r) => [r.headers.get("x-page-cache"), await r.text()] as const)));
    // All five are in: one is rendering (held at the gate), four wait for it.
    await until(() => app.arrived() === 5, "five requests to reach the cache");
    release();
    const answers = await all;
    expect(app.renders()).toBe(1);
    expect(answers.filter(([state]) => state === "hit")).toHaveLength(4);
    for (const [, body] of answers) expect(body).toContain("/cards?pack=dialga ページ");
  });

  it("bounds its size: the least recently used answers go first, and big answers are not kept", async () => {
    const app = await serve((req, res) => void res.end(req.path === "/cards/big" ? "x".repeat(2000) : "y".repeat(100)), {
      maxEntries: 2,
      maxEntryBytes: 1000,
    });
    await fetch(`${app.base}/cards/a`);
    await fetch(`${app.base}/cards/b`);
    await fetch(`${app.base}/cards/a`); // a is now the most recent
    await fetch(`${app.base}/cards/c`); // evicts b
    expect(app.cache.stats().entries).toBe(2);
    expect((await fetch(`${app.base}/cards/a`)).headers.get("x-page-cache")).toBe("hit");
    expect((await fetch(`${app.base}/cards/b`)).headers.get("x-page-cache")).toBe("miss");
    const big = await fetch(`${app.base}/cards/big`);
    expect((await big.text()).length).toBe(2000);
    expect((await fetch(`${app.base}/cards/big`)).headers.get("x-page-cache")).toBe("miss");
  });
});

describe("page cache clearing", () => {
  it("forgets only the paths a change touches, and never keeps a render that was under way", async () => {
    let release!: () => void;
    let hold = false;
    const app = await serve(async (req, res) => {
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      page(req, res);
    });
    for (const url of ["/", "/trades", "/cards/A1-001", "/articles"]) await fetch(`${app.base}${url}`);
    expect(app.cache.stats().entries).toBe(4);
    app.cache.clear(showsBoard);
    expect((await fetch(`${app.base}/articles`)).headers.get("x-page-cache")).toBe("hit");
    for (const url of ["/", "/trades", "/cards/A1-001"]) expect((await fetch(`${app.base}${url}`)).headers.get("x-page-cache")).toBe("miss");
    // A render that started before a clear may show the old state: it is answered but not kept.
    hold = true;
    const slow = fetch(`${app.base}/trades?give=A1-003`);
    await until(() => typeof release === "function", "the render to start");
    app.cache.clear();
    hold = false;
    release();
    expect((await slow).headers.get("x-page-cache")).toBe("miss");
    expect((await fetch(`${app.base}/trades?give=A1-003`)).headers.get("x-page-cache")).toBe("miss");
    expect((await fetch(`${app.base}/trades?give=A1-003`)).headers.get("x-page-cache")).toBe("hit");
  });

  it("hands a render under way at a clear to no one who waits on it, and keeps renders the clear did not touch", async () => {
    const releases: Array<() => void> = [];
    let hold = false;
    let renders = 0;
    const app = await serve(async (req, res) => {
      renders++;
      if (hold) await new Promise<void>((resolve) => releases.push(resolve));
      page(req, res);
    });
    hold = true;
    const board = fetch(`${app.base}/trades?give=A1-004`);
    const article = fetch(`${app.base}/articles?page=2`);
    await until(() => releases.length === 2, "both renders to start");
    app.cache.clear(showsBoard);
    // Arrives after the clear while the old render is still under way: it must not get that render.
    const late = fetch(`${app.base}/trades?give=A1-004`);
    await until(() => app.cache.stats().misses === 3, "the late request to wait");
    hold = false;
    for (const release of releases.splice(0)) release();
    expect((await board).headers.get("x-page-cache")).toBe("miss");
    await late;
    expect(renders).toBe(3);
    await article;
    // The article page was not touched by the board's change: its render was kept.
    expect((await fetch(`${app.base}/articles?page=2`)).headers.get("x-page-cache")).toBe("hit");
  });

  it("names the board's paths: home, the board, offers, card pages and their APIs", () => {
    for (const path of ["/", "/_.data", "/trades", "/trades.data", "/trades/0b5e7c1e-0000-4000-8000-000000000000", "/cards/A1-001", "/cards/A1-001.data", "/api/trades", "/api/cards/A1/001"]) expect(showsBoard(path), path).toBe(true);
    for (const path of ["/articles", "/articles/x", "/deck-recipes", "/api/articles", "/api/decks", "/cards", "/cards.data", "/api/cards", "/api/cards/search"]) expect(showsBoard(path), path).toBe(false);
  });
});

describe("pageCacheKey", () => {
  const req = (path: string, cookie?: string, method = "GET") => ({ method, path: path.split("?")[0], originalUrl: path, headers: cookie ? { cookie } : {} });
  it("keys by language and full URL, for the public read paths only", () => {
    expect(pageCacheKey(req("/trades?rarity=☆"))).toBe("ja /trades?rarity=☆");
    expect(pageCacheKey(req("/cards/A1-001", "lang=en"))).toBe("en /cards/A1-001");
    expect(pageCacheKey(req("/trades.data?give=A1-001"))).toBe("ja /trades.data?give=A1-001");
    expect(pageCacheKey(req("/api/cards/search?q=ぴか"))).toBe("ja /api/cards/search?q=ぴか");
    expect(pageCacheKey(req("/trades/2ab741cc-63bc-4a17-81a7-54961293cf93"))).not.toBeNull();
    for (const path of ["/trades/new", "/chat/x", "/admin", "/profile", "/api/trades/matches", "/api/auth/get-session", "/login"]) {
      expect(pageCacheKey(req(path)), path).toBeNull();
    }
    for (const path of ["/articles?category=guide&page=2", "/articles/feed.xml", "/articles/summer-event", "/articles/summer-event.data", "/api/articles", "/api/articles/summer-event"]) {
      expect(pageCacheKey(req(path)), path).not.toBeNull();
    }
    // Admin article APIs and odd paths never share answers.
    for (const path of ["/api/admin/articles", "/articles/a/b", "/articles/%E6%97%A5"]) expect(pageCacheKey(req(path)), path).toBeNull();
    expect(pageCacheKey(req("/trades", "lang=ja; other=1"))).toBeNull();
    expect(pageCacheKey(req("/trades", undefined, "HEAD"))).toBeNull();
  });
});
