import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "#app/db/schema/content.ts";
import { users } from "#app/db/schema/users.ts";
import { getSiteSettings } from "#app/features/settings/settings.server.ts";
import { onChange, onLocalChange } from "#app/lib/change-bus.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action, loader } from "#app/routes/api.admin.settings.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;
let adminCookie: string;
let userCookie: string;

async function signUp(): Promise<{ cookie: string; email: string }> {
  const email = `s-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.5.0.1" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026", name: "設定" }),
    }),
  );
  expect(res.status).toBe(200);
  return { email, cookie: res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0] };
}

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "s".repeat(40), AUTH_RATE_LIMIT_MAX: "1000" });
  context = { db: database.db, env, cspNonce: "n" };
  const admin = await signUp();
  await database.db.update(users).set({ role: "admin" }).where(eq(users.email, admin.email));
  adminCookie = admin.cookie;
  userCookie = (await signUp()).cookie;
});
afterAll(async () => {
  await database?.close();
});

const settled = (promise: Promise<unknown>) => promise.then((r) => r as Response, (thrown: unknown) => {
  if (thrown instanceof Response) return thrown;
  throw thrown;
});
const get = (cookie: string) => settled(loader({ request: new Request(`${SITE}/api/admin/settings`, { headers: { cookie } }), context, params: {} } as never));
const put = (cookie: string, body: unknown, headers: Record<string, string> = {}) =>
  settled(
    action({
      request: new Request(`${SITE}/api/admin/settings`, { method: "PUT", headers: { cookie, "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) }),
      context,
      params: {},
    } as never),
  );

const FULL = { metaDescription: " 説明文 ", seoKeywords: "ポケポケ、トレード,  デッキ ,ポケポケ", ogTitle: "OG題", ogDescription: "OG説明", ogImage: "/uploads/og/1-a-1200x630.webp" };

describe("GET/PUT /api/admin/settings", () => {
  it("reads empty settings before the first save", async () => {
    const res = await get(adminCookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ metaDescription: "", seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "" });
  });

  it("saves the five fields (trimmed, keywords normalised) and every reader sees them at once", async () => {
    await getSiteSettings(database.db); // warm the cache
    const relayed: string[] = [];
    const stopLocal = onLocalChange((kind) => kind === "settings" && relayed.push("local"));
    const stopAny = onChange("settings", () => relayed.push("any"));
    const res = await put(adminCookie, { ...FULL, unknown: "ignored" });
    stopLocal();
    stopAny();
    expect(res.status).toBe(200);
    const expected = { metaDescription: "説明文", seoKeywords: "ポケポケ, トレード, デッキ", ogTitle: "OG題", ogDescription: "OG説明", ogImage: "/uploads/og/1-a-1200x630.webp" };
    expect(await res.json()).toEqual(expected);
    expect(relayed).toEqual(["local", "any"]);
    expect(await getSiteSettings(database.db)).toEqual(expected);
    expect(await (await get(adminCookie)).json()).toEqual(expected);
    const rows = await database.db.select().from(siteSettings);
    expect(rows).toHaveLength(1);
    expect(rows[0].updatedBy).not.toBeNull();
  });

  it("replaces the whole document on the next save (one row)", async () => {
    const res = await put(adminCookie, { metaDescription: "新しい説明", seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "https://cdn.example/og.png" });
    expect(res.status).toBe(200);
    expect(await getSiteSettings(database.db)).toEqual({ metaDescription: "新しい説明", seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "https://cdn.example/og.png" });
    expect(await database.db.select({ id: siteSettings.id }).from(siteSettings)).toEqual([{ id: 1 }]);
  });

  it("refuses what breaks a rule with 400 and the field's message, changing nothing", async () => {
    const before = await getSiteSettings(database.db);
    const long = await put(adminCookie, { ...FULL, metaDescription: "あ".repeat(201) });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: "メタディスクリプションは200文字以内で入力してください", code: "invalid_input", fields: { metaDescription: "メタディスクリプションは200文字以内で入力してください" } });
    for (const ogImage of ["javascript:alert(1)", "data:image/png;base64,AAAA", "//evil.example/x.png", "not a url"]) {
      const res = await put(adminCookie, { ...FULL, ogImage });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.ogImage).toMatch(/^OG画像URLは/);
    }
    expect((await put(adminCookie, "{not json")).status).toBe(400);
    expect((await put(adminCookie, { ...FULL, ogTitle: 5 })).status).toBe(400);
    expect((await put(adminCookie, FULL, { "content-type": "text/plain" })).status).toBe(400);
    expect((await put(adminCookie, { ...FULL, ogDescription: "x".repeat(20_000) })).status).toBe(413);
    expect(await getSiteSettings(database.db)).toEqual(before);
  });

  it("checks admin membership on every read and save: 401 signed out, 403 管理者権限がありません。", async () => {
    expect((await get("")).status).toBe(401);
    expect((await put("", FULL)).status).toBe(401);
    const forbidden = await put(userCookie, FULL);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: "管理者権限がありません。", code: "admin_required" });
    expect((await get(userCookie)).status).toBe(403);
  });
});
