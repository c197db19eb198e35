import { spawnSync } from "node:child_process";
import path from "node:path";
import { io } from "socket.io-client";
import { describe, expect, inject, it } from "vitest";
import { startServer } from "#tests/support/server.ts";
import { until } from "#tests/support/wait.ts";

const baseUrl = inject("baseUrl");
const root = path.resolve(import.meta.dirname, "../..");

describe("the running server", () => {
  it("answers /healthz with the database status", async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", db: "ok" });
  });

  it("serves Socket.IO on the same HTTP server", async () => {
    const socket = io(baseUrl, { transports: ["websocket"], extraHeaders: { origin: baseUrl } });
    const reply = await new Promise<{ ok: boolean }>((resolve, reject) => {
      socket.once("connect_error", reject);
      socket.emit("ping:server", (r: { ok: boolean }) => resolve(r));
    });
    expect(reply.ok).toBe(true);
    socket.close();
  });

  it("refuses a socket from another origin", async () => {
    const socket = io(baseUrl, { transports: ["websocket"], extraHeaders: { origin: "https://evil.example" }, reconnection: false });
    const error = await new Promise<Error>((resolve) => {
      socket.once("connect_error", resolve);
      socket.once("connect", () => resolve(new Error("connected")));
    });
    expect(error.message).not.toBe("connected");
    socket.close();
  });

  it("sends security headers with a nonce-based CSP that the page's scripts carry", async () => {
    const res = await fetch(`${baseUrl}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    // JSON-LD blocks are data, never run, so CSP does not apply to them; every script that runs carries the nonce.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('type="application/ld+json"'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("shares a signed-out render through the page cache, each copy with its own CSP nonce", async () => {
    const first = await fetch(`${baseUrl}/trades?rarity=${encodeURIComponent("◆◆")}`);
    await first.text();
    const res = await fetch(`${baseUrl}/trades?rarity=${encodeURIComponent("◆◆")}`);
    expect(res.headers.get("x-page-cache")).toBe("hit");
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(/'nonce-([^']+)'/.exec(first.headers.get("content-security-policy") ?? "")?.[1]);
    const scripts = [...(await res.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('type="application/ld+json"'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A session cookie (even a forged one) is never served from it.
    const withCookie = await fetch(`${baseUrl}/trades?rarity=${encodeURIComponent("◆◆")}`, { headers: { cookie: "torepoke.session_token=x.y" } });
    expect(withCookie.headers.get("x-page-cache")).toBeNull();
  });

  it("answers the directly dispatched read APIs with the same statuses and JSON errors", async () => {
    const signedOut = await fetch(`${baseUrl}/api/trades/matches`);
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("content-type")).toContain("application/json");
    expect(await signedOut.json()).toEqual({ error: expect.any(String), code: "login_required" });
    const forged = await fetch(`${baseUrl}/api/trades/matches`, { headers: { cookie: "torepoke.session_token=forged.c2ln" } });
    expect(forged.status).toBe(401);
    const badCursor = await fetch(`${baseUrl}/api/trades?cursor=${encodeURIComponent("not a cursor")}`);
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({ error: expect.any(String) });
    const board = await fetch(`${baseUrl}/api/trades`, { headers: { cookie: "x=1" } });
    expect(board.status).toBe(200);
    expect(await board.json()).toMatchObject({ offers: expect.any(Array) });
    const search = await fetch(`${baseUrl}/api/cards/search?q=${encodeURIComponent("ぴかちゅう")}`, { headers: { cookie: "x=1" } });
    expect(search.headers.get("cache-control")).toBe("public, max-age=60");
    expect((await search.json()).cards.length).toBeGreaterThan(0);
    // Signed in: マッチ pages, and a page number that is not one gets a Japanese 400.
    const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ email: `direct-${Date.now()}@example.com`, password: "direct-api-pass", name: "ページ" }),
    });
    expect(signUp.status).toBe(200);
    const session = { cookie: signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
    const matches = await fetch(`${baseUrl}/api/trades/matches?page=1`, { headers: session });
    expect(matches.status).toBe(200);
    expect(await matches.json()).toEqual({ matches: [], page: 1, pageCount: 0, total: 0 });
    const badPage = await fetch(`${baseUrl}/api/trades/matches?page=abc`, { headers: session });
    expect(badPage.status).toBe(400);
    expect(await badPage.json()).toMatchObject({ error: "ページの指定が正しくありません" });
    // Writes still go through React Router's handler.
    const post = await fetch(`${baseUrl}/api/trades`, { method: "POST", headers: { origin: baseUrl, "content-type": "application/json" }, body: "{}" });
    expect(post.status).toBe(401);
  });

  it("answers 400, not 500, when a page action gets a body that is not a form", async () => {
    for (const path of ["/login", "/signup", "/language", "/profile"]) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { origin: baseUrl, "content-type": "application/json" },
        body: '{"email":"a@example.com"}',
        redirect: "manual",
      });
      // /profile sends a signed-out visitor to log in before it reads anything.
      expect(path === "/profile" ? [302, 400] : [400]).toContain(res.status);
    }
  });

  it("compresses HTML responses", async () => {
    const res = await fetch(`${baseUrl}/`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("stops start-up with one line naming a garbage variable", () => {
    for (const [name, value] of [
      ["PORT", "abc"],
      ["DATABASE_URL", "nonsense"],
      ["REDIS_URL", "nonsense"],
      ["SITE_URL", "ftp://x"],
    ]) {
      const result = spawnSync(process.execPath, ["server.js"], {
        cwd: root,
        env: { ...process.env, [name]: value },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).not.toBe(0);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(name);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("runs in production mode unless NODE_ENV says otherwise, and logs the mode", async () => {
    // npm start sets no NODE_ENV: server.js must choose production before React is loaded.
    const unset = await startServer({ NODE_ENV: "" });
    try {
      await until(() => unset.logs.join("").includes('"msg":"listening"'), "the start-up log");
      expect(unset.logs.join("")).toMatch(/"msg":"listening".*"mode":"production"/);
      expect(unset.logs.join("")).not.toContain("not in production mode");
    } finally {
      await unset.stop();
    }
    const development = await startServer({ NODE_ENV: "development" });
    try {
      await until(() => development.logs.join("").includes('"msg":"listening"'), "the start-up log");
      expect(development.logs.join("")).toMatch(/"msg":"listening".*"mode":"development"/);
      expect(development.logs.join("")).toContain("not in production mode");
    } finally {
      await development.stop();
    }
  });

  it("shuts down cleanly on SIGTERM under load, and the database opens again", async () => {
    const server = await startServer();
    let answered = 0;
    const load = Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 40; i++) {
        try {
          const res = await fetch(`${server.url}/`);
          await res.text();
          if (res.ok) answered++;
        } catch {
          return; // refused once the server stopped accepting
        }
      }
    });
    // Sign-ups through the real auth API during the same load: every one that got a 200 was
    // committed, so it must still be able to sign in after the restart.
    const signedUp: string[] = [];
    const signUps = Array.from({ length: 3 }, async (_, worker) => {
      for (let i = 0; i < 100; i++) {
        const email = `shutdown-${worker}-${i}-${Date.now()}@example.com`;
        try {
          const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
            method: "POST",
            headers: { origin: server.url, "content-type": "application/json" },
            body: JSON.stringify({ email, password: "kouKan-pass-2026", name: `負荷${worker}-${i}` }),
          });
          await res.text();
          if (res.status === 200) signedUp.push(email);
        } catch {
          return;
        }
      }
    });
    // Stop while both kinds of request are under way: some answered, some sign-ups committed.
    await until(() => answered > 0 && signedUp.length > 0, "pages and sign-ups to go through", 30_000);
    const code = await server.stop("SIGTERM");
    await Promise.all([...load, ...signUps]);
    expect(code).toBe(0);
    expect(answered).toBeGreaterThan(0);
    expect(signedUp.length).toBeGreaterThan(0);
    expect(server.logs.join("")).toContain('"msg":"stopped"');

    const again = await startServer({ DATA_DIR: server.dataDir });
    const health = await fetch(`${again.url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok", db: "ok" });
    // Second start reuses the catalogue instead of importing it again.
    expect(again.logs.join("")).not.toContain("card catalogue loaded");
    for (const email of signedUp) {
      const res = await fetch(`${again.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { origin: again.url, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "kouKan-pass-2026" }),
      });
      expect(res.status, email).toBe(200);
    }
    expect(await again.stop()).toBe(0);
  });
});
