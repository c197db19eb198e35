import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { chatRooms } from "#app/db/schema/chat.ts";
import { tradeOffers } from "#app/db/schema/trades.ts";
import { users } from "#app/db/schema/users.ts";
import { getDatabaseStats } from "#app/features/admin/admin.server.ts";
import { requireAdmin, requireApiAdmin } from "#app/features/users/session.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "w".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", ADMIN_USER_IDS: "" });
  context = { db: database.db, env, cspNonce: "n" };
});
afterAll(async () => {
  await database?.close();
});

async function signUp() {
  const email = `a-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.3.0.1" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026", name: "管理" }),
    }),
  );
  expect(res.status).toBe(200);
  return { email, cookie: res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0] };
}

const request = (cookie?: string) => new Request(`${SITE}/admin`, { headers: cookie ? { cookie } : {} });

describe("admin gate", () => {
  it("answers 401 ログインが必要です when signed out and 403 管理者権限がありません for a user", async () => {
    const anonymous = (await requireAdmin(request(), context).catch((e: unknown) => e)) as { data: { message: string }; init: { status: number } };
    expect(anonymous.init.status).toBe(401);
    expect(anonymous.data.message).toBe("ログインが必要です");

    const { cookie } = await signUp();
    const user = (await requireAdmin(request(cookie), context).catch((e: unknown) => e)) as { data: { message: string }; init: { status: number } };
    expect(user.init.status).toBe(403);
    expect(user.data.message).toBe("管理者権限がありません");

    const api = (await requireApiAdmin(request(cookie), context).catch((e: unknown) => e)) as Response;
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ error: "管理者権限がありません。", code: "admin_required" });
    const apiAnonymous = (await requireApiAdmin(request(), context).catch((e: unknown) => e)) as Response;
    expect(apiAnonymous.status).toBe(401);
  });

  it("lets an admin through (role in the database)", async () => {
    const { cookie, email } = await signUp();
    await database.db.update(users).set({ role: "admin" }).where(eq(users.email, email));
    expect((await requireAdmin(request(cookie), context)).isAdmin).toBe(true);
    expect((await requireApiAdmin(request(cookie), context)).email).toBe(email);
  });

  it("lets an admin through by ADMIN_USER_IDS", async () => {
    const { cookie, email } = await signUp();
    const [row] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const byId = { ...context, env: { ...env, adminUserIds: [row.id] } };
    expect((await requireAdmin(request(cookie), byId)).isAdmin).toBe(true);
  });
});

describe("database statistics", () => {
  it("counts users, trade offers and chat rooms", async () => {
    const before = await getDatabaseStats(database.db);
    const owner = await signUp();
    const partner = await signUp();
    const [ownerRow] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
    const [partnerRow] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, partner.email));
    const [offer] = await database.db
      .insert(tradeOffers)
      .values({ ownerId: ownerRow.id, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: tradeOffers.id });
    await database.db.insert(chatRooms).values({ offerId: offer.id, ownerId: ownerRow.id, partnerId: partnerRow.id });
    const after = await getDatabaseStats(database.db);
    expect(after).toEqual({ users: before.users + 2, trades: before.trades + 1, chatRooms: before.chatRooms + 1 });
  });
});
