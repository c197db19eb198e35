import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushSubscriptions } from "#app/db/schema/push.ts";
import { sessions, users } from "#app/db/schema/users.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import type { MailMessage } from "#app/features/mail/mail.server.ts";
import { ADDRESS_CHANGES_PER_DAY, isResetTokenCurrent } from "#app/features/users/account-auth.server.ts";
import { CLIENT_IP_HEADER, DISABLED_AUTH_PATHS, getAuth, PAGE_AUTH_PATHS, PUBLIC_AUTH_ENDPOINTS } from "#app/features/users/auth.server.ts";
import { OFF_SITE_REDIRECTS } from "#app/features/users/safe-redirect.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { signToken } from "#app/lib/signed-token.server.ts";
import { action as notMeAction, loader as notMeLoader } from "#app/routes/account.not-me.tsx";
import { action as accountAction } from "#app/routes/profile.account.tsx";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Issue 35: what a stolen session, a mailed link or a crafted callback could do to an account.
let database: TestDatabase;
let env: Env;
let http: Awaited<ReturnType<typeof startHttpApp>>;
/** Where the app listens; requests name SITE as their origin, as a browser on the site does. */
let base: string;
const SITE = "http://torepoke.test";
let ip = 0;
const PASSWORD = "kouKan-2026-pass";

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "s".repeat(40), AUTH_RATE_LIMIT_MAX: "10000", LOG_LEVEL: "silent", DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-security-")) });
  http = await startHttpApp({ env, database, routes: {} });
  base = http.base;
});
afterAll(async () => {
  await http?.close();
  await database?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
const cookieOf = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))?.split(";")[0];

/** A request the way the page actions make it inside the server (callAuthEndpoint). */
function inside(pathName: string, body: unknown, cookie?: string) {
  const headers = new Headers({ "content-type": "application/json", origin: env.siteUrl, [CLIENT_IP_HEADER]: `10.35.0.${++ip % 250}` });
  if (cookie) headers.set("cookie", cookie);
  return getAuth(database.db, env).handler(new Request(`${env.siteUrl}/api/auth${pathName}`, { method: "POST", headers, body: JSON.stringify(body) }));
}

async function signUp(name = "持ち主") {
  const email = uniqueEmail("owner");
  const res = await inside("/sign-up/email", { email, password: PASSWORD, name });
  expect(res.status).toBe(200);
  const [user] = await database.db.select().from(users).where(eq(users.email, email));
  return { id: user.id, email, cookie: cookieOf(res)! };
}

async function mailsTo(to: string): Promise<MailMessage[]> {
  const rows = await rowsOf<{ payload: MailMessage }>(database.db, sql`select payload from delivery_outbox where kind = 'mail' and lower(payload->>'to') = ${to.toLowerCase()} order by id`);
  return rows.map((r) => r.payload);
}

const context = () => ({ db: database.db, env, cspNonce: "test" }) as unknown as AppLoadContext;
const args = (request: Request) => ({ request, params: {}, context: context() }) as never;

/** The account page's change of address, as the browser submits it (with the current password). */
async function askAddressChange(cookie: string, newEmail: string) {
  const body = new URLSearchParams({ intent: "changeEmail", newEmail, currentPassword: PASSWORD });
  const request = new Request(`${env.siteUrl}/profile/account`, { method: "POST", headers: { cookie, origin: env.siteUrl, "content-type": "application/x-www-form-urlencoded" }, body });
  return (await accountAction(args(request))) as { ok?: boolean; data?: { code?: string; message?: string }; init?: { status?: number } };
}

const linkIn = (mail: MailMessage, pattern: RegExp) => pattern.exec(mail.text)?.[0];
const notMeLinkOf = async (oldEmail: string) => linkIn((await mailsTo(oldEmail)).find((m) => m.subject.includes("変更手続き"))!, /http:\/\/\S+\/account\/not-me\?token=\S+/)!;
const changeLinkOf = async (newEmail: string) => linkIn((await mailsTo(newEmail))[0], /http:\/\/\S+\/api\/auth\/verify-email\?\S+/)!;

const emailOf = async (id: string) => (await database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0].email;
const confirm = (link: string, cookie?: string) => getAuth(database.db, env).handler(new Request(link, cookie ? { headers: { cookie } } : {}));

async function pressNotMe(link: string) {
  const token = new URL(link).searchParams.get("token")!;
  const request = new Request(`${env.siteUrl}/account/not-me?token=${encodeURIComponent(token)}`, {
    method: "POST",
    headers: { origin: env.siteUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  return (await notMeAction(args(request))) as { done: boolean; state?: string; email?: string; reverted?: boolean; resetSent?: boolean };
}
const notMeState = async (link: string) => (await notMeLoader(args(new Request(link)))).state;

describe("the library's endpoints from outside", () => {
  it("accounts for every endpoint of the library: public, called by our pages only, or disabled", () => {
    const api = getAuth(database.db, env).api as unknown as Record<string, { path?: string }>;
    const paths = Object.values(api)
      .map((endpoint) => endpoint.path)
      .filter((p): p is string => typeof p === "string");
    const publicPaths = new Set([...PUBLIC_AUTH_ENDPOINTS].map((e) => e.split(" ")[1]));
    // Only reachable through a mailed link of ours or a provider we do not configure: closed at the gate.
    const gateOnly = new Set(["/reset-password/:token", "/callback/:id"]);
    const unaccounted = paths.filter((p) => !publicPaths.has(p) && !(PAGE_AUTH_PATHS as readonly string[]).includes(p) && !DISABLED_AUTH_PATHS.includes(p) && !gateOnly.has(p));
    expect(unaccounted).toEqual([]);
    expect(paths.length).toBeGreaterThan(25);
  });

  it("a session cookie alone cannot change the address, list or end sessions, or call any endpoint our pages keep to themselves", async () => {
    const owner = await signUp();
    const attacker = uniqueEmail("attacker");
    const send = (method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/auth${p}`, { method, headers: { cookie: owner.cookie, origin: SITE, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
    const moved = await send("POST", "/change-email", { newEmail: attacker, callbackURL: "/" });
    expect(moved.status).toBe(404);
    expect(await moved.json()).toMatchObject({ code: "not_found", error: expect.any(String) });
    expect(await mailsTo(attacker)).toHaveLength(0);
    const closed: [string, string, unknown?][] = [
      ["GET", "/list-sessions"],
      ["POST", "/revoke-sessions", {}],
      ["POST", "/revoke-other-sessions", {}],
      ["POST", "/change-password", { currentPassword: PASSWORD, newPassword: "atarashii-Pass-77" }],
      ["POST", "/request-password-reset", { email: owner.email }],
      ["POST", "/reset-password", { token: "x", newPassword: "atarashii-Pass-77" }],
      ["GET", "/reset-password/abc?callbackURL=/"],
      ["POST", "/verify-password", { password: PASSWORD }],
      ["POST", "/update-session", {}],
      ["POST", "/update-user", { name: "乗っ取り" }],
      ["POST", "/send-verification-email", { email: owner.email }],
      ["GET", "/list-accounts"],
      ["GET", "/callback/line"],
    ];
    for (const [method, p, body] of closed) {
      const res = await send(method, p, body);
      expect({ p, status: res.status }).toEqual({ p, status: 404 });
    }
    // What a browser does use still works.
    const session = await send("GET", "/get-session");
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(owner.email);
    expect((await database.db.select({ email: users.email }).from(users).where(eq(users.id, owner.id)))[0].email).toBe(owner.email);
    const out = await send("POST", "/sign-out", {});
    expect(out.status).toBe(200);
  });
});

describe("これは私ではありません", () => {
  it("cancels a pending change from the old address: the link stops working, every session ends, the password stops working and a reset link is mailed", async () => {
    const owner = await signUp();
    const second = cookieOf(await inside("/sign-in/email", { email: owner.email, password: PASSWORD }))!;
    const newEmail = uniqueEmail("pending");
    expect(await askAddressChange(owner.cookie, newEmail)).toMatchObject({ ok: true });
    const link = await notMeLinkOf(owner.email);
    expect(await notMeState(link)).toBe("valid");

    const done = await pressNotMe(link);
    expect(done).toMatchObject({ done: true, email: owner.email, reverted: false, resetSent: true });
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, owner.id))).toHaveLength(0);
    expect(second).toBeDefined();
    // The change link mailed to the new address no longer moves the account.
    const confirm = await getAuth(database.db, env).handler(new Request(await changeLinkOf(newEmail)));
    expect(confirm.headers.get("location")).toContain("error=TOKEN_EXPIRED");
    expect((await database.db.select({ email: users.email }).from(users).where(eq(users.id, owner.id)))[0].email).toBe(owner.email);
    // Whoever asked knew the password: it works no more, and the reset mail is the way back.
    expect((await inside("/sign-in/email", { email: owner.email, password: PASSWORD })).status).toBe(401);
    expect((await mailsTo(owner.email)).map((m) => m.subject)).toContain("【トレポケ】パスワードの再設定");
    // Used once.
    expect(await notMeState(link)).toBe("used");
    expect(await pressNotMe(link)).toMatchObject({ done: false, state: "used" });
  });

  it("moves a change that already went through back to the old address", async () => {
    const owner = await signUp();
    const newEmail = uniqueEmail("taken");
    expect(await askAddressChange(owner.cookie, newEmail)).toMatchObject({ ok: true });
    const moved = await getAuth(database.db, env).handler(new Request(await changeLinkOf(newEmail)));
    expect(moved.status).toBe(302);
    expect((await database.db.select({ email: users.email }).from(users).where(eq(users.id, owner.id)))[0].email).toBe(newEmail);

    const done = await pressNotMe(await notMeLinkOf(owner.email));
    expect(done).toMatchObject({ done: true, email: owner.email, reverted: true });
    expect((await database.db.select({ email: users.email, emailVerified: users.emailVerified }).from(users).where(eq(users.id, owner.id)))[0]).toEqual({ email: owner.email, emailVerified: true });
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, owner.id))).toHaveLength(0);
  });

  it("still works after whoever made the change changed the password, or moved the address again", async () => {
    const owner = await signUp();
    const b = uniqueEmail("b");
    const c = uniqueEmail("c");
    expect(await askAddressChange(owner.cookie, b)).toMatchObject({ ok: true });
    expect((await confirm(await changeLinkOf(b), owner.cookie)).status).toBe(302);
    const link = await notMeLinkOf(owner.email);
    expect(await askAddressChange(owner.cookie, c)).toMatchObject({ ok: true });
    expect((await confirm(await changeLinkOf(c), owner.cookie)).status).toBe(302);
    const changed = await inside("/change-password", { currentPassword: PASSWORD, newPassword: "nottori-Pass-2026", revokeOtherSessions: true }, owner.cookie);
    expect(changed.status).toBe(200);
    expect(await emailOf(owner.id)).toBe(c);
    expect(await notMeState(link)).toBe("valid");
    expect(await pressNotMe(link)).toMatchObject({ done: true, email: owner.email, reverted: true, resetSent: true });
    expect(await emailOf(owner.id)).toBe(owner.email);
    expect((await inside("/sign-in/email", { email: owner.email, password: "nottori-Pass-2026" })).status).toBe(401);
  });

  it("keeps the old address for its owner: nobody can sign up with it or move another account to it, and the reset link never goes to the new address", async () => {
    const owner = await signUp();
    const b = uniqueEmail("b");
    expect(await askAddressChange(owner.cookie, b)).toMatchObject({ ok: true });
    expect((await confirm(await changeLinkOf(b))).status).toBe(302);
    const squat = await inside("/sign-up/email", { email: owner.email, password: "squatter-Pass-99", name: "横取り" });
    expect(squat.status).toBe(422);
    expect(await squat.json()).toMatchObject({ code: "email_taken" });
    const other = await signUp("別の人");
    expect(await askAddressChange(other.cookie, owner.email)).toMatchObject({ ok: true });
    expect((await mailsTo(owner.email)).filter((m) => m.subject === "【トレポケ】新しいメールアドレスの確認")).toHaveLength(0);
    expect(await pressNotMe(await notMeLinkOf(owner.email))).toMatchObject({ done: true, email: owner.email, reverted: true, resetSent: true });
    expect((await mailsTo(b)).filter((m) => m.subject === "【トレポケ】パスワードの再設定")).toHaveLength(0);
    expect((await mailsTo(owner.email)).filter((m) => m.subject === "【トレポケ】パスワードの再設定")).toHaveLength(1);
  });

  it("pressed twice at once, undoes once and leaves a reset link that works", async () => {
    const owner = await signUp();
    await askAddressChange(owner.cookie, uniqueEmail("twice"));
    const link = await notMeLinkOf(owner.email);
    const presses = await Promise.all([pressNotMe(link), pressNotMe(link)]);
    expect(presses.map((p) => p.done).sort()).toEqual([false, true]);
    expect(presses.find((p) => !p.done)).toMatchObject({ state: "used" });
    const resets = (await mailsTo(owner.email)).filter((m) => m.subject === "【トレポケ】パスワードの再設定");
    expect(resets).toHaveLength(1);
    const token = new URL(linkIn(resets[0], /http:\/\/\S+\/reset-password\?token=\S+/)!).searchParams.get("token")!;
    expect(await isResetTokenCurrent(database.db, token)).toBe(true);
  });

  it("refuses a link that is forged, or signed for another purpose", async () => {
    const owner = await signUp();
    const newEmail = uniqueEmail("forged");
    await askAddressChange(owner.cookie, newEmail);
    const link = new URL(await notMeLinkOf(owner.email));
    const [payload] = link.searchParams.get("token")!.split(".");
    const tampered = `${env.siteUrl}/account/not-me?token=${payload}.${"A".repeat(43)}`;
    expect(await notMeState(tampered)).toBe("invalid");
    expect(await pressNotMe(tampered)).toMatchObject({ done: false, state: "invalid" });
    expect(await notMeState(`${env.siteUrl}/account/not-me`)).toBe("invalid");
    // The same payload signed as another mail's link (the unsubscribe link's purpose) is not accepted.
    const crossed = `${env.siteUrl}/account/not-me?token=${signToken(env.authSecret, "mail-unsubscribe", Buffer.from(payload, "base64url").toString("utf8"))}`;
    expect(await notMeState(crossed)).toBe("invalid");
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, owner.id))).toHaveLength(1);
  });
});

describe("a password change on this device", () => {
  it("keeps this device's push subscription, bound to the new session", async () => {
    const owner = await signUp();
    const [session] = await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, owner.id));
    await database.db.insert(pushSubscriptions).values({ userId: owner.id, sessionId: session.id, endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString("hex")}`, p256dh: "p", auth: "a" });
    const body = new URLSearchParams({ intent: "changePassword", currentPassword: PASSWORD, newPassword: "atarashii-Pass-77" });
    const request = new Request(`${env.siteUrl}/profile/account`, { method: "POST", headers: { cookie: owner.cookie, origin: env.siteUrl, "content-type": "application/x-www-form-urlencoded" }, body });
    const result = (await accountAction(args(request))) as { data: { ok?: boolean } };
    expect(result.data).toMatchObject({ ok: true });
    const [now] = await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, owner.id));
    expect(now.id).not.toBe(session.id);
    const subs = await database.db.select({ sessionId: pushSubscriptions.sessionId }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, owner.id));
    expect(subs).toEqual([{ sessionId: now.id }]);
  });
});

describe("change-of-address mail", () => {
  it("to the new address carries nothing the requester chose, and an account may ask for it 3 times a day", async () => {
    const owner = await signUp("【公式】当選のお知らせ");
    const asked: string[] = [];
    for (let i = 0; i < ADDRESS_CHANGES_PER_DAY; i++) {
      const to = uniqueEmail(`stranger${i}`);
      asked.push(to);
      expect(await askAddressChange(owner.cookie, to)).toMatchObject({ ok: true });
    }
    const [mail] = await mailsTo(asked[0]);
    expect(mail.text).not.toContain("当選");
    expect(mail.html).not.toContain("当選");
    const refused = await askAddressChange(owner.cookie, uniqueEmail("one-too-many"));
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toMatchObject({ code: "address_change_limited", message: `メールアドレスの変更手続きは1日${ADDRESS_CHANGES_PER_DAY}回までです。明日もう一度お試しください。` });
    const total = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from delivery_outbox where kind = 'mail' and payload->>'subject' = '【トレポケ】新しいメールアドレスの確認' and payload->>'to' in (${sql.join(asked.map((a) => sql`${a}`), sql`, `)})`);
    expect(total[0].n).toBe(ADDRESS_CHANGES_PER_DAY);
  });
});

describe("reset links after a password change", () => {
  const resetTokenOf = async (email: string) => {
    const mail = (await mailsTo(email)).filter((m) => m.subject === "【トレポケ】パスワードの再設定").at(-1)!;
    return new URL(linkIn(mail, /http:\/\/\S+\/reset-password\?token=\S+/)!).searchParams.get("token")!;
  };
  const requestReset = async (email: string) => {
    expect((await inside("/request-password-reset", { email })).status).toBe(200);
    // One reset mail per account every two minutes: the newest row is read back, not the mail.
    const [row] = await rowsOf<{ identifier: string }>(database.db, sql`select identifier from verifications where identifier like 'reset-password:%' and value = (select id from users where email = ${email}) order by created_at desc limit 1`);
    return row.identifier.slice("reset-password:".length);
  };

  it("a change of password ends every reset link mailed before it", async () => {
    const owner = await signUp();
    const early = await requestReset(owner.email);
    expect(await resetTokenOf(owner.email)).toBe(early);
    expect(await isResetTokenCurrent(database.db, early)).toBe(true);
    const changed = await inside("/change-password", { currentPassword: PASSWORD, newPassword: "atarashii-Pass-77", revokeOtherSessions: true }, owner.cookie);
    expect(changed.status).toBe(200);
    expect(await isResetTokenCurrent(database.db, early)).toBe(false);
    const used = await inside("/reset-password", { token: early, newPassword: "nottoriya-Pass-88" });
    expect(used.status).toBe(400);
    expect(await used.json()).toMatchObject({ code: "invalid_token" });
    expect((await inside("/sign-in/email", { email: owner.email, password: "atarashii-Pass-77" })).status).toBe(200);
  });

  it("a token with a NUL or other control character is refused as an invalid link, not a failure", async () => {
    for (const token of ["a\u0000b", "\u0000", "abc\n"]) {
      expect(await isResetTokenCurrent(database.db, token)).toBe(false);
      const res = await inside("/reset-password", { token, newPassword: "atarashii-Pass-77" });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_token" });
    }
  });

  it("a completed reset ends the other reset links of the account", async () => {
    const owner = await signUp();
    const first = await requestReset(owner.email);
    const second = await requestReset(owner.email);
    expect(first).not.toBe(second);
    expect((await inside("/reset-password", { token: second, newPassword: "atarashii-Pass-77" })).status).toBe(200);
    expect(await isResetTokenCurrent(database.db, first)).toBe(false);
    expect((await inside("/reset-password", { token: first, newPassword: "nottoriya-Pass-88" })).status).toBe(400);
  });
});

describe("callbacks of the auth endpoints", () => {
  it("verify-email never sends the browser off the site, whatever callbackURL says", async () => {
    for (const asked of [...OFF_SITE_REDIRECTS, "/.//evil.example/x", "/..//evil.example/x", "/%2e//evil.example/x"]) {
      const res = await fetch(`${base}/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent(asked)}`, { redirect: "manual" });
      const location = res.headers.get("location") ?? "";
      expect({ asked, status: res.status }).toEqual({ asked, status: 302 });
      expect({ asked, offSite: location.startsWith("//") || location.startsWith("/\\") || new URL(location, SITE).origin !== SITE }).toEqual({ asked, offSite: false });
    }
  });

  it("sign-in with a callbackURL HTTP headers cannot carry answers as usual instead of 500", async () => {
    const owner = await signUp();
    const res = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: SITE, "content-type": "application/json" },
      body: JSON.stringify({ email: owner.email, password: PASSWORD, callbackURL: "/。evil.example" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url?: string };
    if (body.url) expect(new URL(body.url, SITE).origin).toBe(SITE);
    const wrong = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: SITE, "content-type": "application/json" },
      body: JSON.stringify({ email: owner.email, password: "wrong-password-1", callbackURL: "/。evil.example" }),
    });
    expect(wrong.status).toBe(401);
  });
});
