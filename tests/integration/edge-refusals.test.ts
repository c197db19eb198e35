import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "#app/lib/env.server.ts";
import * as adminSettings from "#app/routes/api.admin.settings.ts";
import * as cardInPack from "#app/routes/api.cards.$packId.$cardId.ts";
import * as trades from "#app/routes/api.trades.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Refusals through the real Express app: whichever layer refuses (CSRF, the edge, a guard, the
// input reader, a schema, a service), the JSON answer is {error, code, fields?} in the reader's language.
const SITE = "http://torepoke.test";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
let admin: string;
let user: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-refusals-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent", AUTH_RATE_LIMIT_MAX: "1000" });
  server = await startHttpApp({ env, database, routes: { "api/admin/settings": adminSettings, "api/cards/:packId/:cardId": cardInPack, "api/trades": trades } });
  admin = await createSessionCookie(database.db, (await createUser(database.db, { role: "admin" })).id, SECRET);
  user = await createSessionCookie(database.db, (await createUser(database.db)).id, SECRET);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

async function call(pathname: string, init: { method?: string; cookie?: string; body?: string; origin?: string; type?: string; lang?: string } = {}) {
  const cookie = [init.cookie, init.lang ? `lang=${init.lang}` : ""].filter(Boolean).join("; ");
  const res = await fetch(`${server.base}${pathname}`, {
    method: init.method ?? "GET",
    headers: { origin: init.origin ?? SITE, accept: "application/json", ...(cookie ? { cookie } : {}), ...(init.body !== undefined ? { "content-type": init.type ?? "application/json" } : {}) },
    body: init.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("one refusal shape through Express", () => {
  it("answers each layer's refusal as {error, code, fields?}", async () => {
    expect(await call("/api/admin/settings", { method: "PUT", cookie: admin, body: "{}", origin: "https://evil.example" })).toEqual({
      status: 403,
      body: { error: "不正なリクエストです（送信元を確認できません）", code: "csrf" },
    });
    expect(await call("/api/admin/settings", { method: "PUT", body: "{}" })).toEqual({ status: 401, body: { error: "ログインが必要です", code: "login_required" } });
    expect(await call("/api/admin/settings", { method: "PUT", cookie: user, body: "{}" })).toEqual({ status: 403, body: { error: "管理者権限がありません。", code: "admin_required" } });
    expect(await call("/api/admin/settings", { method: "PUT", cookie: admin, body: "{oops" })).toEqual({ status: 400, body: { error: "リクエストの形式が正しくありません", code: "unreadable" } });
    const badField = await call("/api/admin/settings", { method: "PUT", cookie: admin, body: JSON.stringify({ metaDescription: "あ".repeat(201), seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "" }) });
    expect(badField).toEqual({ status: 400, body: { error: "メタディスクリプションは200文字以内で入力してください", code: "invalid_input", fields: { metaDescription: "メタディスクリプションは200文字以内で入力してください" } } });
    expect(await call("/api/admin/settings", { method: "POST", cookie: admin, body: "{}" })).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
    expect(await call("/api/cards/dialga/nope")).toEqual({ status: 404, body: { error: "カードが見つかりません", code: "not_found" } });
  });

  it("speaks the reader's language and names the offer form's fields", async () => {
    expect(await call("/api/cards/dialga/nope", { lang: "en" })).toEqual({ status: 404, body: { error: "Card not found", code: "not_found" } });
    const offer = await call("/api/trades", { method: "POST", cookie: user, body: JSON.stringify({ give: [], want: [] }) });
    expect(offer.status).toBe(400);
    expect(offer.body).toMatchObject({ code: "invalid_input", fields: { give: expect.any(String) } });
    expect(offer.body.error).toBe((offer.body.fields as Record<string, string>).give);
  });

  it("refuses a sign-in with NUL in the address as bad input, not a server error", async () => {
    const res = await call("/api/auth/sign-in/email", { method: "POST", body: JSON.stringify({ email: "a\u0000b", password: "fuzz-pass-2026" }) });
    expect(res.status).toBe(400);
  });
});
