import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { BODY_LIMITS, DEFAULT_BODY_LIMIT_BYTES } from "#app/lib/body-limits.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import * as adminArticles from "#app/routes/api.admin.articles.ts";
import * as adminArticle from "#app/routes/api.admin.articles.$id.ts";
import * as cardsImport from "#app/routes/api.admin.cards.import.ts";
import * as cardsCatalogue from "#app/routes/api.admin.cards.catalogue.ts";
import * as collectionImport from "#app/routes/api.collection.import.ts";
import * as adminDecks from "#app/routes/api.admin.decks.ts";
import * as seoSuggest from "#app/routes/api.admin.seo.suggest.ts";
import * as settings from "#app/routes/api.admin.settings.ts";
import * as tradeRules from "#app/routes/api.admin.trade-rules.ts";
import * as uploads from "#app/routes/api.admin.uploads.ts";
import * as login from "#app/routes/login.tsx";
import * as notificationSettings from "#app/routes/api.notifications.settings.ts";
import * as pushSubscription from "#app/routes/api.push.subscription.ts";
import * as signup from "#app/routes/signup.tsx";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Each body limit of app/lib/body-limits.ts, driven through the real Express app: a body of
// exactly the limit reaches its route, one byte more is refused at the edge (413, unread), and a
// chunked body past the limit is stopped by the input reader as it streams.
const SITE = "http://torepoke.test";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
let cookie: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-limits-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent", AUTH_RATE_LIMIT_MAX: "1000" });
  server = await startHttpApp({
    env,
    database,
    routes: {
      "api/admin/articles": adminArticles,
      "api/admin/articles/:id": adminArticle,
      "api/admin/cards/import": cardsImport,
      "api/admin/cards/catalogue": cardsCatalogue,
      "api/collection/import": collectionImport,
      "api/admin/decks": adminDecks,
      "api/admin/seo/suggest": seoSuggest,
      "api/admin/settings": settings,
      "api/admin/trade-rules": tradeRules,
      "api/admin/uploads": uploads,
      "api/notifications/settings": notificationSettings,
      "api/push/subscription": pushSubscription,
      login,
      signup,
    },
  });
  const admin = await createUser(database.db, { role: "admin" });
  cookie = await createSessionCookie(database.db, admin.id, SECRET);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

type Answer = { status: number; body: string };

/** One request with full control of the framing: `declared` sends that Content-Length but only `body`. */
function send(pathname: string, body: Buffer, options: { declared?: number; chunked?: boolean; type?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: new URL(SITE).host, origin: SITE, cookie, "content-type": options.type ?? "application/json", accept: "application/json" };
    if (options.chunked) headers["transfer-encoding"] = "chunked";
    else headers["content-length"] = String(options.declared ?? body.length);
    const method = pathname.startsWith("/api/admin/articles/") ? "PATCH" : pathname === "/api/notifications/settings" ? "PUT" : "POST";
    const req = httpRequest(`${server.base}${pathname}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
    if (options.chunked) {
      // Written in pieces, as a client that never says how much is coming.
      for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
      req.end();
    } else if (options.declared !== undefined) {
      req.write(body.subarray(0, 1024));
    } else req.end(body);
  });
}

/** A JSON object of exactly `bytes` bytes that no route accepts as its input. */
function jsonOf(bytes: number): Buffer {
  const head = '{"pad":"';
  return Buffer.from(`${head}${"x".repeat(bytes - head.length - 2)}"}`);
}

// Entries whose path is a concrete URL here (prefix entries are checked through one of their URLs).
const URL_OF: Record<string, string> = { "/api/admin/articles/": "/api/admin/articles/00000000-0000-0000-0000-000000000000", "/api/auth/": "/api/auth/sign-in/email" };

/** Routes that take only a multipart body (a JSON body is refused before it is read). */
const MULTIPART_ONLY = new Set(["/api/collection/import"]);

describe("body limits through Express", () => {
  it.each(BODY_LIMITS.map((limit) => [limit.path, limit] as const))("%s: the limit reaches the route, a byte more is refused at the edge", async (_path, limit) => {
    const url = URL_OF[limit.path] ?? limit.path;
    const type =
      url === "/login" || url === "/signup" ? "application/x-www-form-urlencoded" : MULTIPART_ONLY.has(url) ? "multipart/form-data; boundary=limit" : "application/json";
    const within = await send(url, type === "application/json" ? jsonOf(limit.maxBytes) : Buffer.from(`email=${"x".repeat(limit.maxBytes - 6)}`), { type });
    expect(within.status, within.body.slice(0, 200)).not.toBe(413);
    expect(within.status).toBeLessThan(500);
    const over = await send(url, Buffer.alloc(0), { declared: limit.maxBytes + 1, type });
    expect(over.status).toBe(413);
    if (type === "application/json") expect(JSON.parse(over.body).error).toContain("送信された内容が大きすぎます");
  });

  it.each(BODY_LIMITS.filter((limit) => limit.streaming).map((limit) => [limit.path, limit] as const))(
    "%s: a chunked body past the limit is stopped while it streams",
    async (_path, limit) => {
      const url = URL_OF[limit.path] ?? limit.path;
      // The uploads and the collection import read multipart; the others JSON.
      const type = url === "/api/admin/uploads" || MULTIPART_ONLY.has(url) ? "multipart/form-data; boundary=limit" : "application/json";
      const answer = await send(url, jsonOf(limit.maxBytes + 64 * 1024), { chunked: true, type });
      expect(answer.status).toBe(413);
    },
  );

  it("gives every other route the default limit", async () => {
    expect((await send("/api/admin/decks", jsonOf(DEFAULT_BODY_LIMIT_BYTES))).status).toBe(400);
    expect((await send("/api/admin/decks", Buffer.alloc(0), { declared: DEFAULT_BODY_LIMIT_BYTES + 1 })).status).toBe(413);
  });

  it("suggests keywords and a description for an article of 100,000 Japanese characters", async () => {
    const sentence = "ピカチュウexは雷デッキの主役です。ゼブライカで雷エネルギーを加速します。";
    const content = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000);
    const body = Buffer.from(JSON.stringify({ title: "ピカチュウexデッキの回し方", content }));
    expect(body.length).toBeGreaterThan(DEFAULT_BODY_LIMIT_BYTES);
    const answer = await send("/api/admin/seo/suggest", body);
    expect(answer.status).toBe(200);
    const suggestion = JSON.parse(answer.body) as { keywords: string[]; metaDescription: string };
    expect(suggestion.keywords).toContain("ピカチュウex");
    expect(suggestion.metaDescription).toMatch(/^ピカチュウexは雷デッキの主役です。/);
  }, 60_000);
});
