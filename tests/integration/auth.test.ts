import { eq, sql } from "drizzle-orm";
import { rowsOf } from "#app/db/sql.server.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles, rateLimits, sessions, users } from "#app/db/schema/users.ts";
import { getViewerFromHeaders } from "#app/features/users/session.server.ts";
import { authRequestHandler, CLIENT_IP_HEADER, createAuthForTest, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let ipCounter = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "x".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", ADMIN_EMAILS: "boss@example.com" });
});
afterAll(async () => {
  await database?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A request as the browser sends it through Express: same-origin, with the client IP header. */
function authRequest(path: string, body: unknown, options: { ip?: string; raw?: string; cookie?: string; lang?: string } = {}) {
  const headers = new Headers({
    "content-type": "application/json",
    origin: SITE,
    [CLIENT_IP_HEADER]: options.ip ?? `10.0.0.${++ipCounter % 250}`,
  });
  const cookies = [options.cookie, options.lang ? `lang=${options.lang}` : undefined].filter(Boolean).join("; ");
  if (cookies) headers.set("cookie", cookies);
  return new Request(`${SITE}/api/auth${path}`, { method: "POST", headers, body: options.raw ?? JSON.stringify(body) });
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie.split(";")[0];
}

describe("sign-up and sign-in through the auth API", () => {
  it("refuses one of the most common passwords, saying why, in the user's language", async () => {
    const auth = getAuth(database.db, env);
    for (const password of ["password", "12345678", "PASSWORD", "qwertyuiop", "iloveyou"]) {
      const res = await auth.handler(authRequest("/sign-up/email", { email: uniqueEmail("common"), password, name: "よくある" }));
      expect(res.status, password).toBe(400);
      expect(await res.json(), password).toMatchObject({
        code: "password_common",
        message: "このパスワードはよく使われていて推測されやすいため使えません。ほかの人が思いつかない、長めのパスワードにしてください。",
      });
    }
    const en = await auth.handler(authRequest("/sign-up/email", { email: uniqueEmail("common"), password: "password1", name: "common" }, { lang: "en" }));
    expect(((await en.json()) as { message: string }).message).toMatch(/used so often/);
    // A password nobody else picks goes through.
    const ok = await auth.handler(authRequest("/sign-up/email", { email: uniqueEmail("fine"), password: "とれぽけ-kouKan-2026", name: "ふつう" }));
    expect(ok.status).toBe(200);
  });

  it("creates the user, its profile, and a session cookie that resolves to the viewer", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("alice");
    const res = await auth.handler(authRequest("/sign-up/email", { email, password: "correct horse", name: "  アリス  " }));
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);

    const viewer = await getViewerFromHeaders(new Headers({ cookie: sessionCookie(res) }), database.db, env);
    expect(viewer).toMatchObject({ email, displayName: "アリス", friendId: null, isAdmin: false, suspended: false });
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.userId, viewer!.id));
    expect(profile.displayName).toBe("アリス");
    expect(profile.completedTrades).toBe(0);
  });

  it("marks session cookies Secure when the site is served over https", async () => {
    const httpsEnv = loadEnv({ SITE_URL: "https://torepoke.example", BETTER_AUTH_SECRET: "y".repeat(40) });
    const auth = getAuth(database.db, httpsEnv);
    const req = new Request("https://torepoke.example/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://torepoke.example", [CLIENT_IP_HEADER]: "10.1.0.1" },
      body: JSON.stringify({ email: uniqueEmail("secure"), password: "kouKan-pass-2026", name: "S" }),
    });
    const res = await auth.handler(req);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Secure-torepoke.session_token="));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const viewer = await getViewerFromHeaders(new Headers({ cookie: cookie!.split(";")[0] }), database.db, httpsEnv);
    expect(viewer?.displayName).toBe("S");
    // The plain-named cookie is not accepted on an https site.
    const plain = cookie!.split(";")[0].replace("__Secure-", "");
    expect(await getViewerFromHeaders(new Headers({ cookie: plain }), database.db, httpsEnv)).toBeNull();
  });

  it("refuses a duplicate e-mail, and a wrong password without saying which part was wrong", async () => {
    const auth = { handler: authRequestHandler(getAuth(database.db, env)) };
    const email = uniqueEmail("bob");
    expect((await auth.handler(authRequest("/sign-up/email", { email, password: "kouKan-pass-2026", name: "ボブ" }))).status).toBe(200);
    const dup = await auth.handler(authRequest("/sign-up/email", { email, password: "kouKan-pass-2026", name: "ボブ2" }));
    expect(dup.status).toBe(422);
    expect((await dup.json()).message).toBe("このメールアドレスはすでに登録されています");

    const wrong = await auth.handler(authRequest("/sign-in/email", { email, password: "wrong-password" }));
    const unknown = await auth.handler(authRequest("/sign-in/email", { email: uniqueEmail("nobody"), password: "wrong-password" }));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const wrongMessage = (await wrong.json()).message;
    expect(wrongMessage).toBe("メールアドレスまたはパスワードが正しくありません");
    expect((await unknown.json()).message).toBe(wrongMessage);

    const right = await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-pass-2026" }));
    expect(right.status).toBe(200);
  });

  it("rejects bad input with a Japanese message and stores nothing", async () => {
    const auth = getAuth(database.db, env);
    const cases: Array<[unknown, RegExp]> = [
      [{ email: uniqueEmail("long"), password: "kouKan-pass-2026", name: "あ".repeat(21) }, /20文字以内/],
      [{ email: uniqueEmail("ctrl"), password: "kouKan-pass-2026", name: "evil\u0000name" }, /使用できない文字/],
      [{ email: uniqueEmail("bidi"), password: "kouKan-pass-2026", name: "abc\u202Edef" }, /使用できない文字/],
      [{ email: uniqueEmail("html"), password: "kouKan-pass-2026", name: "<script>alert(1)</script>" }, /< や >/],
      [{ email: uniqueEmail("empty"), password: "kouKan-pass-2026", name: "   " }, /表示名を入力/],
      [{ email: `${"a".repeat(250)}@example.com`, password: "kouKan-pass-2026", name: "長い" }, /長すぎます/],
      [{ email: uniqueEmail("short"), password: "short", name: "短い" }, /8〜128文字/],
      [{ email: uniqueEmail("huge"), password: "p".repeat(129), name: "長い" }, /8〜128文字/],
      [{ email: uniqueEmail("role"), password: "kouKan-pass-2026", name: "役", role: "admin" }, /形式/],
    ];
    const before = (await database.db.select({ id: users.id }).from(users)).length;
    for (const [body, message] of cases) {
      const res = await auth.handler(authRequest("/sign-up/email", body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect((await database.db.select({ id: users.id }).from(users)).length).toBe(before);
  });

  it("answers malformed JSON with a clear 400, not a crash", async () => {
    const handler = authRequestHandler(getAuth(database.db, env));
    const res = await handler(authRequest("/sign-up/email", null, { raw: "{not json" }));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("リクエストの形式が正しくありません");
    const english = await handler(authRequest("/sign-up/email", null, { raw: "[1,2", lang: "en" }));
    expect((await english.json()).message).toBe("The request is malformed");
  });

  it("rate-limits sign-in per client IP in the database, with a Japanese 429 message", async () => {
    const auth = { handler: authRequestHandler(createAuthForTest(database.db, env, { rateLimitMax: 2 })) };
    const ip = "10.9.9.9";
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await auth.handler(authRequest("/sign-in/email", { email: uniqueEmail("rl"), password: "wrong-password" }, { ip }));
      statuses.push(res.status);
      if (res.status === 429) expect((await res.json()).message).toMatch(/試行回数が多すぎます/);
    }
    expect(statuses).toEqual([401, 401, 429]);
    // Another address is not affected; the counter lives in rate_limits.
    const other = await auth.handler(authRequest("/sign-in/email", { email: uniqueEmail("rl"), password: "wrong-password" }, { ip: "10.9.9.10" }));
    expect(other.status).toBe(401);
    const rows = await database.db.select().from(rateLimits);
    expect(rows.some((r) => r.key.includes("10.9.9.9"))).toBe(true);
  });

  it("recognises admins from ADMIN_EMAILS once the address is verified, and from the admin role", async () => {
    const auth = getAuth(database.db, env);
    const res = await auth.handler(authRequest("/sign-up/email", { email: "Boss@example.com", password: "kouKan-pass-2026", name: "ボス" }));
    expect(res.status).toBe(200);
    const bossCookie = sessionCookie(res);
    // Anyone may sign up with the owner's address: it proves nothing until the mailed link is opened.
    expect((await getViewerFromHeaders(new Headers({ cookie: bossCookie }), database.db, env))?.isAdmin).toBe(false);
    const [mail] = await rowsOf<{ text: string }>(database.db, sql`select payload->>'text' as text from delivery_outbox where payload->>'to' = 'boss@example.com' and payload->>'subject' = '【トレポケ】メールアドレスの確認'`);
    const link = /http:\/\/torepoke\.test\/api\/auth\/verify-email\?\S+/.exec(mail.text)![0];
    expect((await auth.handler(new Request(link))).status).toBe(302);
    const boss = await getViewerFromHeaders(new Headers({ cookie: bossCookie }), database.db, env);
    expect(boss?.isAdmin).toBe(true);

    const email = uniqueEmail("helper");
    const res2 = await auth.handler(authRequest("/sign-up/email", { email, password: "kouKan-pass-2026", name: "手伝い" }));
    const cookie = sessionCookie(res2);
    expect((await getViewerFromHeaders(new Headers({ cookie }), database.db, env))?.isAdmin).toBe(false);
    await database.db.update(users).set({ role: "admin" }).where(eq(users.email, email));
    expect((await getViewerFromHeaders(new Headers({ cookie }), database.db, env))?.isAdmin).toBe(true);
  });

  it("marks a suspended user and refuses their next sign-in", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("suspended");
    const res = await auth.handler(authRequest("/sign-up/email", { email, password: "kouKan-pass-2026", name: "停止" }));
    const cookie = sessionCookie(res);
    const viewer = await getViewerFromHeaders(new Headers({ cookie }), database.db, env);
    await database.db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, viewer!.id));
    expect((await getViewerFromHeaders(new Headers({ cookie }), database.db, env))?.suspended).toBe(true);
    const again = await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-pass-2026" }));
    expect(again.status).toBe(403);
    expect((await again.json()).message).toBe("このアカウントは利用停止中です");
  });
});

describe("sliding sessions", () => {
  const DAY = 24 * 60 * 60 * 1000;
  async function signedUp() {
    const auth = getAuth(database.db, env);
    const res = await auth.handler(authRequest("/sign-up/email", { email: uniqueEmail("slide"), password: "kouKan-pass-2026", name: "スライド" }));
    const cookie = sessionCookie(res);
    const [row] = await database.db.select({ id: sessions.id }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.token, decodeURIComponent(cookie.split("=")[1]).split(".")[0]));
    const setExpiry = (at: Date) => database.db.update(sessions).set({ expiresAt: at }).where(eq(sessions.id, row.id));
    const expiry = async () => (await database.db.select({ at: sessions.expiresAt }).from(sessions).where(eq(sessions.id, row.id)))[0].at.getTime();
    return { cookie, setExpiry, expiry };
  }

  it("extends a session that is used after a day, in the database and in the browser's cookie", async () => {
    const { cookie, setExpiry, expiry } = await signedUp();
    // Last refreshed ten days ago: twenty days left.
    await setExpiry(new Date(Date.now() + 20 * DAY));
    const refreshed: string[] = [];
    expect(await getViewerFromHeaders(new Headers({ cookie }), database.db, env, (c) => refreshed.push(c))).not.toBeNull();
    expect(await expiry()).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).toMatch(new RegExp(`^${cookie.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}; Max-Age=${30 * 24 * 60 * 60}; Path=/; HttpOnly; SameSite=Lax$`));
    // Within the day after a refresh nothing is written again.
    const again: string[] = [];
    await getViewerFromHeaders(new Headers({ cookie }), database.db, env, (c) => again.push(c));
    expect(again).toEqual([]);
  });

  it("lets an idle session expire: past its expiry the cookie no longer signs anyone in", async () => {
    const { cookie, setExpiry } = await signedUp();
    await setExpiry(new Date(Date.now() - 60_000));
    const refreshed: string[] = [];
    expect(await getViewerFromHeaders(new Headers({ cookie }), database.db, env, (c) => refreshed.push(c))).toBeNull();
    expect(refreshed).toEqual([]);
  });
});
