import { request as httpRequest } from "node:http";
import { io } from "socket.io-client";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { signUp } from "#tests/support/instances.ts";

const baseUrl = inject("baseUrl");
const httpsSameHost = baseUrl.replace(/^http:/, "https:");

async function twoCards(): Promise<[string, string]> {
  const res = await fetch(`${baseUrl}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`);
  const { cards } = (await res.json()) as { cards: { id: string }[] };
  return [cards[0].id, cards[1].id];
}

let session: { cookie: string };
beforeAll(async () => {
  // Signed up with a display name and a friend ID, so the session may post offers.
  session = { cookie: (await signUp({ url: baseUrl }, "ハードニング")).cookie };
});

describe("origins: scheme, host and port all compared", () => {
  it("refuses a same-host https Origin or Referer on an http site, for an offer and for log-out", async () => {
    const [give, want] = await twoCards();
    const offer = JSON.stringify({ give: [{ cardId: give, count: 1 }], want: [{ cardId: want, count: 1 }] });
    const forged = await fetch(`${baseUrl}/api/trades`, {
      method: "POST",
      headers: { ...session, origin: httpsSameHost, "content-type": "application/json" },
      body: offer,
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: expect.any(String), code: "csrf" });
    const byReferer = await fetch(`${baseUrl}/logout`, { method: "POST", headers: { ...session, referer: `${httpsSameHost}/profile` }, redirect: "manual" });
    expect(byReferer.status).toBe(403);
    // Still signed in, and the same request from the site itself works.
    const me = await fetch(`${baseUrl}/profile`, { headers: session, redirect: "manual" });
    expect(me.status).toBe(200);
    const real = await fetch(`${baseUrl}/api/trades`, { method: "POST", headers: { ...session, origin: baseUrl, "content-type": "application/json" }, body: offer });
    expect(real.status).toBe(201);
  });

  it("refuses a /chat socket whose Origin is the same host on another scheme", async () => {
    const socket = io(`${baseUrl}/chat`, { transports: ["websocket"], extraHeaders: { ...session, origin: httpsSameHost }, reconnection: false });
    const outcome = await new Promise<string>((resolve) => {
      socket.once("connect_error", (err) => resolve(`refused: ${err.message}`));
      socket.once("connect", () => resolve("connected"));
    });
    socket.close();
    expect(outcome).toMatch(/^refused/);
  });
});

describe("headers", () => {
  it("sends Cache-Control: private, no-store with every page rendered for a signed-in user", async () => {
    for (const path of ["/profile", "/", "/trades", "/cards", "/terms"]) {
      const res = await fetch(`${baseUrl}${path}`, { headers: session });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    const data = await fetch(`${baseUrl}/profile.data`, { headers: session });
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    // Signed out, a public page stays cacheable by nobody's rule but its own.
    const anonymous = await fetch(`${baseUrl}/terms`);
    expect(anonymous.headers.get("cache-control")).not.toBe("private, no-store");
  });

  it("gives Socket.IO's long-polling answers nosniff and the frame protections", async () => {
    const res = await fetch(`${baseUrl}/socket.io/?EIO=4&transport=polling`, { headers: { origin: baseUrl } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("oversized and malformed input gets a clear 4xx", () => {
  it("answers 413 to a big JSON comment, profile form and sign-up", async () => {
    const big = "あ".repeat(100 * 1024);
    const comment = await fetch(`${baseUrl}/api/trades`, {
      method: "POST",
      headers: { ...session, origin: baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ give: [], want: [], comment: big }),
    });
    expect(comment.status).toBe(413);
    expect(await comment.json()).toEqual({ error: "送信された内容が大きすぎます（上限 256 KB）。内容を減らしてもう一度お試しください。", code: "too_large" });
    const form = await fetch(`${baseUrl}/profile`, {
      method: "POST",
      headers: { ...session, origin: baseUrl, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ displayName: big, friendId: "" }),
    });
    expect(form.status).toBe(413);
    expect(await form.text()).toContain("送信された内容が大きすぎます");
    const signup = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ email: "big@example.com", password: "x".repeat(20_000), name: "big" }),
    });
    expect(signup.status).toBe(413);
  });

  it("answers a 50 MB body at once, before the client has sent it", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${baseUrl}/api/trades`,
        { method: "POST", headers: { ...session, origin: baseUrl, "content-type": "application/json", "content-length": String(50 * 1024 * 1024) } },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write('{"comment":"');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining("256 KB"), code: "too_large" });
  });

  it("refuses NUL bytes in paths (404), queries (400) and bodies (400)", async () => {
    for (const path of ["/cards/%00", "/api/cards/%00/%00", "/api/cards/pikachu/%FF"]) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, path).toBe(404);
    }
    for (const path of ["/api/trades?give=%00", "/trades?want=%00", "/api/cards?pack=pikachu&q=%00", "/api/cards/search?q=%C3%28"]) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, path).toBe(400);
    }
    const api = await fetch(`${baseUrl}/api/trades?give=%00`);
    expect(await api.json()).toEqual({ error: expect.any(String), code: "unreadable" });
    const offer = await fetch(`${baseUrl}/api/trades`, {
      method: "POST",
      headers: { ...session, origin: baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ give: [{ cardId: "A1-001\u0000", count: 1 }], want: [{ cardId: "\u0000", count: 1 }], comment: "\u0000" }),
    });
    expect(offer.status).toBe(400);
    expect(await offer.json()).toMatchObject({ error: expect.any(String) });
  });
});
