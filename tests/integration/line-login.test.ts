import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, profiles, sessions, users } from "#app/db/schema/users.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { exportAccountData } from "#app/features/users/account.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { isPlaceholderAddress } from "#app/features/users/line-login.server.ts";
import { loginMethods, startLineLink, startLineSignIn, unlinkLine } from "#app/features/users/login-methods.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import * as loginLineRoute from "#app/routes/login.line.ts";
import { action as accountAction } from "#app/routes/profile.account.tsx";
import type { AppLoadContext } from "react-router";
import { startHttpApp } from "#tests/support/http-app.ts";
import { CookieJar, LINE_TEST_CLIENT_ID, LINE_TEST_CLIENT_SECRET, startLineStandIn, throughLine, type LineUser } from "#tests/support/line-stand-in.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Issue 42: LINE Login against a real OpenID Connect server standing in for LINE.
const SITE = "http://torepoke.test";
const PASSWORD = "kouKan-2026-pass";
let database: TestDatabase;
let env: Env;
let http: Awaited<ReturnType<typeof startHttpApp>>;
let line: Awaited<ReturnType<typeof startLineStandIn>>;
let ip = 0;

beforeAll(async () => {
  line = await startLineStandIn(SITE);
  database = await createTestDatabase();
  env = loadEnv({
    NODE_ENV: "test",
    SITE_URL: SITE,
    BETTER_AUTH_SECRET: "s".repeat(40),
    AUTH_RATE_LIMIT_MAX: "10000",
    LOG_LEVEL: "silent",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-line-")),
    LINE_CLIENT_ID: LINE_TEST_CLIENT_ID,
    LINE_CLIENT_SECRET: LINE_TEST_CLIENT_SECRET,
    LINE_TEST_ORIGIN: line.origin,
  });
  http = await startHttpApp({ env, database, routes: { "login/line": loginLineRoute } });
});
afterAll(async () => {
  await http?.close();
  await database?.close();
  await line?.close();
});

const lineUser = (name: string, email?: string): LineUser => ({ sub: `U${randomBytes(16).toString("hex")}`, name, email });
const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString("hex")}@example.com`;

/** A request of the browser, as a page action receives it (the site's jar's cookies). */
function pageRequest(jar: CookieJar) {
  return new Request(`${SITE}/login/line`, { method: "POST", headers: { cookie: jar.header(), origin: SITE, [CLIENT_IP_HEADER]: `10.42.0.${++ip % 250}` } });
}

/** The callback request at the site, with the browser's cookies: where it sends the browser. */
async function callback(returnUrl: URL, jar: CookieJar): Promise<{ status: number; location: string }> {
  const response = await fetch(`${http.base}${returnUrl.pathname}${returnUrl.search}`, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.take(response);
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/** LINEでログイン from start to the site's answer: the browser's jar, the return URL, where it ends. */
async function signInWithLine(user: LineUser, jar = new CookieJar()) {
  line.signInAs(user);
  const start = await startLineSignIn(database.db, env, pageRequest(jar), { redirectTo: "/trades", newUserTo: "/profile" });
  jar.take(new Response(null, { headers: start.headers }));
  const returnUrl = await throughLine(start.url, line.origin);
  const end = await callback(returnUrl, jar);
  return { jar, returnUrl, end };
}

async function sessionUser(jar: CookieJar) {
  const response = await fetch(`${http.base}/api/auth/get-session`, { headers: { cookie: jar.header() } });
  return ((await response.json()) as { user: { id: string; email: string; name: string } } | null)?.user ?? null;
}

async function emailAccount() {
  const email = uniqueEmail("owner");
  const headers = new Headers({ "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: `10.42.1.${++ip % 250}` });
  const response = await getAuth(database.db, env).handler(new Request(`${SITE}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify({ email, password: PASSWORD, name: "メール民" }) }));
  expect(response.status).toBe(200);
  const jar = new CookieJar();
  jar.take(response);
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: user.id, email, jar };
}

async function verify(userId: string) {
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

describe("LINEでログイン", () => {
  it("the first sign-in creates an account with the LINE display name and no password; a later one signs in to it", async () => {
    const taro = lineUser("ライン太郎", uniqueEmail("taro"));
    const first = await signInWithLine(taro);
    expect(first.end).toEqual({ status: 302, location: "/profile" });
    const user = await sessionUser(first.jar);
    expect(user).toMatchObject({ name: "ライン太郎", email: taro.email });
    const [profile] = await database.db.select({ displayName: profiles.displayName, friendId: profiles.friendId }).from(profiles).where(eq(profiles.userId, user!.id));
    expect(profile).toEqual({ displayName: "ライン太郎", friendId: null });
    const rows = await database.db.select({ providerId: accounts.providerId, accountId: accounts.accountId, password: accounts.password }).from(accounts).where(eq(accounts.userId, user!.id));
    expect(rows).toEqual([{ providerId: "line", accountId: taro.sub, password: null }]);
    // No LINE token is kept (we call no LINE API).
    const [kept] = await database.db.select({ accessToken: accounts.accessToken, refreshToken: accounts.refreshToken, idToken: accounts.idToken }).from(accounts).where(eq(accounts.userId, user!.id));
    expect(kept).toEqual({ accessToken: null, refreshToken: null, idToken: null });
    expect(await loginMethods(database.db, env, user!.id)).toMatchObject({ password: false, line: { linkedAt: expect.any(Date) } });

    const again = await signInWithLine(taro);
    expect(again.end).toEqual({ status: 302, location: "/trades" });
    expect((await sessionUser(again.jar))?.id).toBe(user!.id);
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, taro.email!))).toHaveLength(1);
  });

  it("without an e-mail from LINE the account works on a placeholder address that is never mailed nor verified", async () => {
    const hanako = lineUser("はなこ");
    const { jar, end } = await signInWithLine(hanako);
    expect(end.location).toBe("/profile");
    const user = await sessionUser(jar);
    expect(isPlaceholderAddress(user!.email)).toBe(true);
    const [row] = await database.db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, user!.id));
    expect(row.emailVerified).toBe(false);
    const mails = await rowsOf<{ to: string }>(database.db, sql`select payload->>'to' as "to" from delivery_outbox where kind = 'mail' and lower(payload->>'to') = ${user!.email.toLowerCase()}`);
    expect(mails).toEqual([]);
  });

  it("a LINE sign-in whose address belongs to an account does not merge: it is sent back to /login to link", async () => {
    const owner = await emailAccount();
    await verify(owner.id);
    const lookalike = lineUser("なりすまし", owner.email);
    const { jar, end } = await signInWithLine(lookalike);
    expect(end.status).toBe(302);
    expect(end.location).toMatch(/^\/login\?error=account_not_linked/);
    expect(await sessionUser(jar)).toBeNull();
    expect(await database.db.select({ providerId: accounts.providerId }).from(accounts).where(eq(accounts.userId, owner.id))).toEqual([{ providerId: "credential" }]);
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, owner.email))).toHaveLength(1);
  });

  it("a replayed callback, a forged state and a callback from another sign-in are refused", async () => {
    const jiro = lineUser("じろう", uniqueEmail("jiro"));
    const { jar, returnUrl, end } = await signInWithLine(jiro);
    expect(end.location).toBe("/profile");
    // The same code and state again (a copied URL, a back button): the state is used up.
    const replay = await callback(returnUrl, new CookieJar());
    expect(replay.status).toBe(302);
    expect(replay.location).toMatch(/\/login\?error=/);
    const replaySameBrowser = await callback(returnUrl, jar);
    expect(replaySameBrowser.location).toMatch(/\/login\?error=/);
    // A state the site never issued.
    const forged = new URL(returnUrl);
    forged.searchParams.set("state", randomBytes(24).toString("base64url"));
    expect((await callback(forged, new CookieJar())).location).toMatch(/\/login\?error=/);
    // A victim's browser handed an attacker's code: the state belongs to the victim's sign-in, the
    // code and its ID token (nonce) to another one.
    const victim = new CookieJar();
    line.signInAs(jiro);
    const victimStart = await startLineSignIn(database.db, env, pageRequest(victim), { redirectTo: "/", newUserTo: "/profile" });
    victim.take(new Response(null, { headers: victimStart.headers }));
    const victimState = new URL(victimStart.url).searchParams.get("state")!;
    const attacker = lineUser("攻撃者", uniqueEmail("attacker"));
    line.signInAs(attacker);
    const attackerStart = await startLineSignIn(database.db, env, pageRequest(new CookieJar()), { redirectTo: "/", newUserTo: "/profile" });
    const attackerReturn = await throughLine(attackerStart.url, line.origin);
    const swapped = new URL(attackerReturn);
    swapped.searchParams.set("state", victimState);
    const answer = await callback(swapped, victim);
    expect(answer.location).toMatch(/\/login\?error=/);
    expect(await sessionUser(victim)).toBeNull();
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, attacker.email!))).toHaveLength(0);
  });

  it("an ID token whose nonce is not this sign-in's is refused, with the state and the code in order", async () => {
    const saburo = lineUser("さぶろう", uniqueEmail("saburo"));
    line.signInAs(saburo);
    const jar = new CookieJar();
    const start = await startLineSignIn(database.db, env, pageRequest(jar), { redirectTo: "/", newUserTo: "/profile" });
    jar.take(new Response(null, { headers: start.headers }));
    const tampered = new URL(start.url);
    expect(tampered.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    tampered.searchParams.set("nonce", randomBytes(32).toString("base64url"));
    const end = await callback(await throughLine(tampered.toString(), line.origin), jar);
    expect(end.location).toMatch(/^\/login\?error=invalid_code/);
    expect(await sessionUser(jar)).toBeNull();
    expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, saburo.email!))).toHaveLength(0);
  });
});

describe("ログイン方法", () => {
  it("an e-mail account links LINE after its password, then signs in with LINE; a wrong password links nothing", async () => {
    const owner = await emailAccount();
    const request = () => new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie: owner.jar.header(), origin: SITE, [CLIENT_IP_HEADER]: `10.42.2.${++ip % 250}` } });
    await expect(startLineLink(database.db, env, request(), owner.id, "wrong-password-1")).rejects.toMatchObject({ code: "current_password_wrong" });
    const lineSide = lineUser("メール民のLINE", uniqueEmail("other-address"));
    line.signInAs(lineSide);
    const start = await startLineLink(database.db, env, request(), owner.id, PASSWORD);
    owner.jar.take(new Response(null, { headers: start.headers }));
    const end = await callback(await throughLine(start.url, line.origin), owner.jar);
    expect(end).toEqual({ status: 302, location: "/profile/account?lineLinked=1" });
    expect(await loginMethods(database.db, env, owner.id)).toMatchObject({ password: true, line: { linkedAt: expect.any(Date) } });

    const signedIn = await signInWithLine(lineSide);
    expect(signedIn.end.location).toBe("/trades");
    expect((await sessionUser(signedIn.jar))?.id).toBe(owner.id);

    // Exported with the account; unlinking keeps the password as the way in.
    const exported = (await exportAccountData(database.db, env, owner.id)) as { loginMethods?: unknown };
    expect(exported.loginMethods).toEqual(expect.arrayContaining([expect.objectContaining({ provider: "email-password" }), expect.objectContaining({ provider: "line", accountId: lineSide.sub })]));
    expect(JSON.stringify(exported)).not.toMatch(/accessToken|idToken|"password"/);
    await unlinkLine(database.db, env, request(), owner.id);
    expect(await loginMethods(database.db, env, owner.id)).toMatchObject({ password: true, line: null });
  });

  it("a LINE account linked elsewhere is not moved to a second account", async () => {
    const first = await signInWithLine(lineUser("先の人", uniqueEmail("first")));
    const firstUser = await sessionUser(first.jar);
    const [firstLine] = await database.db.select({ accountId: accounts.accountId }).from(accounts).where(and(eq(accounts.userId, firstUser!.id), eq(accounts.providerId, "line")));
    const owner = await emailAccount();
    line.signInAs({ sub: firstLine.accountId, name: "先の人" });
    const request = new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie: owner.jar.header(), origin: SITE, [CLIENT_IP_HEADER]: `10.42.3.${++ip % 250}` } });
    const start = await startLineLink(database.db, env, request, owner.id, PASSWORD);
    owner.jar.take(new Response(null, { headers: start.headers }));
    const end = await callback(await throughLine(start.url, line.origin), owner.jar);
    expect(end.location).toMatch(/^\/profile\/account\?error=account_already_linked_to_different_user/);
    expect(await loginMethods(database.db, env, owner.id)).toMatchObject({ line: null });
  });

  it("unlinking the last way in is refused", async () => {
    const { jar } = await signInWithLine(lineUser("LINEだけ", uniqueEmail("only")));
    const user = await sessionUser(jar);
    const request = new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie: jar.header(), origin: SITE } });
    await expect(unlinkLine(database.db, env, request, user!.id)).rejects.toMatchObject({ code: "last_login_method", status: 409 });
    expect(await loginMethods(database.db, env, user!.id)).toMatchObject({ line: { linkedAt: expect.any(Date) } });
    expect(await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(1);
  });
});

const context = () => ({ db: database.db, env, cspNonce: "test" }) as unknown as AppLoadContext;
/** The account page's form, as the browser submits it. */
async function accountForm(jar: CookieJar, fields: Record<string, string>) {
  const request = new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie: jar.header(), origin: SITE, "content-type": "application/x-www-form-urlencoded", [CLIENT_IP_HEADER]: `10.42.4.${++ip % 250}` }, body: new URLSearchParams(fields) });
  try {
    return (await accountAction({ request, params: {}, context: context() } as never)) as { ok?: boolean; sentTo?: string; data?: { code?: string; message?: string; fields?: Record<string, string> }; init?: { status?: number } };
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get("location") } as never;
    throw thrown;
  }
}
const mailsTo = (to: string) => rowsOf<{ subject: string }>(database.db, sql`select payload->>'subject' as subject from delivery_outbox where kind = 'mail' and lower(payload->>'to') = ${to.toLowerCase()}`);
const ageSessions = (userId: string, minutes: number) => database.db.update(sessions).set({ createdAt: new Date(Date.now() - minutes * 60_000) }).where(eq(sessions.userId, userId));

describe("a LINE account without an e-mail address", () => {
  it("adds an address (optional) shortly after a LINE sign-in; the link goes to the new address only", async () => {
    const { jar } = await signInWithLine(lineUser("メールなし"));
    const user = (await sessionUser(jar))!;
    const newEmail = uniqueEmail("added");
    await ageSessions(user.id, 30);
    const stale = await accountForm(jar, { intent: "addEmail", newEmail });
    expect(stale.data).toMatchObject({ code: "recent_sign_in_required", message: expect.stringContaining("もう一度LINEでログイン") });
    expect(await mailsTo(newEmail)).toEqual([]);
    const fresh = await signInWithLine({ sub: (await database.db.select({ accountId: accounts.accountId }).from(accounts).where(eq(accounts.userId, user.id)))[0].accountId, name: "メールなし" });
    const added = await accountForm(fresh.jar, { intent: "addEmail", newEmail });
    expect(added).toMatchObject({ ok: true, sentTo: newEmail });
    expect(await mailsTo(newEmail)).toHaveLength(1);
    // Nothing to the placeholder, nothing verified yet.
    expect(await mailsTo(user.email)).toEqual([]);
    expect((await database.db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, user.id)))[0].emailVerified).toBe(false);
  });

  it("an account with a password cannot use the passwordless address form", async () => {
    const owner = await emailAccount();
    const answer = await accountForm(owner.jar, { intent: "addEmail", newEmail: uniqueEmail("sneaky") });
    expect(answer.data).toMatchObject({ code: "bad_request" });
  });

  it("deletion without a password needs a recent LINE sign-in, and removes the linked identity", async () => {
    const sub = lineUser("消える人");
    const { jar } = await signInWithLine(sub);
    const user = (await sessionUser(jar))!;
    await ageSessions(user.id, 30);
    expect((await accountForm(jar, { intent: "deleteAccount", confirm: "on" })).data).toMatchObject({ code: "recent_sign_in_required" });
    await ageSessions(user.id, 0);
    expect(await accountForm(jar, { intent: "deleteAccount", confirm: "on" })).toEqual({ redirect: "/login?deleted=1" });
    expect(await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, user.id))).toEqual([]);
    expect(await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    // The same LINE user signing in again starts a new account.
    const back = await signInWithLine(sub);
    expect(back.end.location).toBe("/profile");
    expect((await sessionUser(back.jar))?.id).not.toBe(user.id);
  });
});

describe("the endpoints LINE opens (docs/decisions/028, 037)", () => {
  it("a LINE sign-in that cannot start goes back to the log-in page with the reason, never a JSON body", async () => {
    const request = new Request(`${SITE}/login/line`, { method: "POST", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded" }, body: "redirectTo=%2Ftrades" });
    const answer = (await loginLineRoute.action({ request, context: { db: database.db, env: { ...env, line: undefined } }, params: {} } as never)) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?error=line_unavailable&redirectTo=%2Ftrades");
  });

  it("only the callback is open to browsers; sign-in, link and unlink are ours; a cross-site POST to /login/line is refused", async () => {
    const owner = await emailAccount();
    const send = (method: string, p: string, body?: unknown) =>
      fetch(`${http.base}/api/auth${p}`, { method, redirect: "manual", headers: { cookie: owner.jar.header(), origin: SITE, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const [method, p, body] of [
      ["POST", "/sign-in/social", { provider: "line", callbackURL: "/" }],
      ["POST", "/link-social", { provider: "line", callbackURL: "/" }],
      ["POST", "/unlink-account", { accountId: "x" }],
      ["GET", "/list-accounts"],
      ["POST", "/callback/line", { code: "x", state: "y" }],
      ["GET", "/callback/google?code=x&state=y"],
    ] as const) {
      expect({ p, status: (await send(method, p, body)).status }).toEqual({ p, status: 404 });
    }
    const callbackWithoutState = await send("GET", "/callback/line?code=x");
    expect(callbackWithoutState.status).toBe(302);
    expect(callbackWithoutState.headers.get("location")).toMatch(/\/login\?error=state_not_found/);

    const crossSite = await fetch(`${http.base}/login/line`, { method: "POST", redirect: "manual", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: "redirectTo=%2F" });
    expect(crossSite.status).toBe(403);
    const sameSite = await fetch(`${http.base}/login/line`, { method: "POST", redirect: "manual", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded" }, body: "redirectTo=https%3A%2F%2Fevil.example%2F" });
    expect(sameSite.status).toBe(302);
    const authorize = new URL(sameSite.headers.get("location")!);
    expect(authorize.origin + authorize.pathname).toBe(`${line.origin}/oauth2/v2.1/authorize`);
    expect(sameSite.headers.getSetCookie().join(";")).toMatch(/state/);
    // The off-site redirectTo became "/": after LINE the player lands on this site.
    line.signInAs(lineUser("寄り道", uniqueEmail("detour")));
    const jar = new CookieJar();
    jar.take(sameSite);
    const end = await callback(await throughLine(authorize.toString(), line.origin), jar);
    expect(end.location).toBe("/profile");
  });
});
