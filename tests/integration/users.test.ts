import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { profiles, sessions, users } from "#app/db/schema/users.ts";
import { ProfileSchema } from "#app/features/users/users.schema.ts";
import { getProfile, listRoleAdmins, setAdminRole, updateProfile } from "#app/features/users/users.server.ts";
import { getViewer, requireApiViewer, requireViewer } from "#app/features/users/session.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "z".repeat(40), AUTH_RATE_LIMIT_MAX: "1000" });
  context = { db: database.db, env, cspNonce: "n" };
});
afterAll(async () => {
  await database?.close();
});

async function signUp(name = "トレーナー") {
  const email = `u-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.2.0.1" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026", name }),
    }),
  );
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0];
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, cookie, userId: user.id };
}

const pageRequest = (path: string, cookie?: string) => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });

describe("profiles", () => {
  it("saves a friend ID typed in full-width digits as 16 ASCII digits, and the name on both rows", async () => {
    const { userId } = await signUp("サトシ");
    const parsed = ProfileSchema.parse({ displayName: " カスミ ", friendId: "１２３４　５６７８－９０１２ー３４５６" });
    await updateProfile(database.db, userId, parsed);
    const profile = await getProfile(database.db, userId);
    expect(profile).toMatchObject({ displayName: "カスミ", friendId: "1234567890123456", completedTrades: 0 });
    expect(profile!.memberSince).toBeInstanceOf(Date);
    const [user] = await database.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
    expect(user.name).toBe("カスミ");

    await updateProfile(database.db, userId, ProfileSchema.parse({ displayName: "カスミ", friendId: "" }));
    expect((await getProfile(database.db, userId))!.friendId).toBeNull();
  });

  it("rejects bad profile input before anything is written", () => {
    const bad = [
      { displayName: "ok", friendId: "1234" },
      { displayName: "ok", friendId: "12345678901234567" },
      { displayName: "ok", friendId: "1234-5678-9012-345x" },
      { displayName: "<img src=x onerror=alert(1)>", friendId: "" },
      { displayName: "a\u0000b", friendId: "" },
      { displayName: "あ".repeat(21), friendId: "" },
      { displayName: "ok", friendId: "1".repeat(100) },
    ];
    for (const input of bad) expect(ProfileSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it("refuses to update a profile that does not exist, leaving users untouched", async () => {
    await expect(updateProfile(database.db, "no-such-user", { displayName: "x", friendId: null })).rejects.toThrow();
  });
});

describe("guards", () => {
  it("requireViewer redirects a signed-out visitor to /login with the page to come back to", async () => {
    const thrown = await requireViewer(pageRequest("/profile?tab=x"), context).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fprofile%3Ftab%3Dx");
    // Client navigations follow it replacing the history entry (docs/product-rules.md §2).
    expect(response.headers.get("x-remix-replace")).toBe("true");
  });

  it("requireViewer on a client navigation's data request sends back to the page, not to its .data address", async () => {
    // React Router 8 hands loaders the raw request: `/trades/new.data?_routes=…` on a client navigation.
    const thrown = (await requireViewer(pageRequest("/trades/new.data?_routes=routes%2Ftrades.new&want=A1-001*2"), context).catch((e: unknown) => e)) as Response;
    expect(thrown.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/trades/new?want=A1-001*2")}`);
  });

  it("requireApiViewer answers 401 JSON when signed out and the viewer when signed in", async () => {
    const thrown = (await requireApiViewer(pageRequest("/api/x"), context).catch((e: unknown) => e)) as Response;
    expect(thrown.status).toBe(401);
    expect(await thrown.json()).toEqual({ error: "ログインが必要です", code: "login_required" });
    const { cookie, userId } = await signUp();
    expect((await requireApiViewer(pageRequest("/api/x", cookie), context)).id).toBe(userId);
  });

  it("refuses a suspended user on pages and APIs", async () => {
    const { cookie, userId } = await signUp();
    await database.db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, userId));
    const api = (await requireApiViewer(pageRequest("/api/x", cookie), context).catch((e: unknown) => e)) as Response;
    expect(api.status).toBe(403);
    const page = await requireViewer(pageRequest("/profile", cookie), context).catch((e: unknown) => e);
    expect((page as { init?: { status?: number } }).init?.status).toBe(403);
  });

  it("an unknown, tampered or expired session cookie is signed out, not an error", async () => {
    expect(await getViewer(pageRequest("/", "torepoke.session_token=forged.value"), context)).toBeNull();
    expect(await getViewer(pageRequest("/", "torepoke.session_token=%E0%A4%A"), context)).toBeNull();
    const { cookie, userId } = await signUp();
    expect((await getViewer(pageRequest("/", `lang=en; ${cookie}`), context))?.id).toBe(userId);
    // Another token under the same signature, or the right token signed with another secret.
    const [name, value] = cookie.split("=");
    const decoded = decodeURIComponent(value);
    const tampered = `${decoded[0] === "a" ? "b" : "a"}${decoded.slice(1)}`;
    expect(await getViewer(pageRequest("/", `${name}=${encodeURIComponent(tampered)}`), context)).toBeNull();
    const otherSecret = { ...context, env: { ...env, authSecret: "q".repeat(40) } };
    expect(await getViewer(pageRequest("/", cookie), otherSecret)).toBeNull();
    await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, userId));
    // A new request (its own load context: one request's loaders share the session they read).
    expect(await getViewer(pageRequest("/", cookie), { ...context })).toBeNull();
  });

  it("reads the session once for the loaders of one page, and anew for the next page", async () => {
    const { cookie, userId } = await signUp();
    // React Router gives the root loader and the page's loader each their own Request, with one load context.
    const page = { ...context };
    const forRoot = await getViewer(pageRequest("/trades", cookie), page);
    const forPage = await getViewer(pageRequest("/trades", cookie), page);
    expect(forRoot?.id).toBe(userId);
    expect(forPage).toBe(forRoot);
    // Another request (its own context), or another cookie in the same one, is read again.
    const next = await getViewer(pageRequest("/trades", cookie), { ...context });
    expect(next).toEqual(forRoot);
    expect(next).not.toBe(forRoot);
    expect(await getViewer(pageRequest("/trades", "torepoke.session_token=forged.value"), page)).toBeNull();
  });

  it("creates a missing profile row on the first request of its user", async () => {
    const { cookie, userId } = await signUp("あとから");
    await database.db.delete(profiles).where(eq(profiles.userId, userId));
    const viewer = await getViewer(pageRequest("/", cookie), context);
    expect(viewer).toMatchObject({ id: userId, displayName: "あとから", friendId: null });
  });
});

describe("admin role", () => {
  it("is granted and revoked by e-mail", async () => {
    const { email, userId } = await signUp();
    expect(await setAdminRole(database.db, email.toUpperCase(), true)).toBe(true);
    expect((await listRoleAdmins(database.db)).map((a) => a.id)).toContain(userId);
    expect(await setAdminRole(database.db, email, false)).toBe(true);
    expect((await listRoleAdmins(database.db)).map((a) => a.id)).not.toContain(userId);
    expect(await setAdminRole(database.db, "nobody@example.com", true)).toBe(false);
  });
});
