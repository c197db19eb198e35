import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users, verifications } from "#app/db/schema/users.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import type { MailMessage } from "#app/features/mail/mail.server.ts";
import { isResetTokenCurrent } from "#app/features/users/account-auth.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let ip = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "r".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", MAIL_FROM: "トレポケ <no-reply@torepoke.test>" });
});
afterAll(async () => {
  await database?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function authRequest(path: string, body: unknown, options: { cookie?: string; lang?: string } = {}) {
  const headers = new Headers({ "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: `10.1.0.${++ip % 250}` });
  const cookies = [options.cookie, options.lang ? `lang=${options.lang}` : undefined].filter(Boolean).join("; ");
  if (cookies) headers.set("cookie", cookies);
  return new Request(`${SITE}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

const sessionCookie = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0];

async function mailsTo(to: string): Promise<MailMessage[]> {
  const rows = await rowsOf<{ payload: MailMessage }>(database.db, sql`select payload from delivery_outbox where kind = 'mail' and payload->>'to' = ${to} order by id`);
  return rows.map((r) => r.payload);
}

async function signUp(email: string, password = "kouKan-2026-pass") {
  const res = await getAuth(database.db, env).handler(authRequest("/sign-up/email", { email, password, name: "リセット" }));
  expect(res.status).toBe(200);
  return sessionCookie(res);
}

describe("forgotten password (Better Auth's reset flow, mail through the outbox)", () => {
  it("answers the same for a registered and an unknown address, and mails only the registered one", async () => {
    const auth = getAuth(database.db, env);
    const known = uniqueEmail("known");
    await signUp(known);
    const unknown = uniqueEmail("unknown");
    const a = await auth.handler(authRequest("/request-password-reset", { email: known }));
    const b = await auth.handler(authRequest("/request-password-reset", { email: unknown }));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    expect((await mailsTo(known)).filter((m) => m.subject.includes("パスワードの再設定"))).toHaveLength(1);
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it("mails a link valid for one hour; the new password must not be a common one; the reset ends every session and is confirmed by mail", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("reset");
    const cookie = await signUp(email);
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    await auth.handler(authRequest("/request-password-reset", { email }, { cookie }));
    const [mail] = (await mailsTo(email)).filter((m) => m.subject === "【トレポケ】パスワードの再設定");
    const link = /http:\/\/torepoke\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    expect(mail.html).toContain(link![0]);
    const token = link![1];
    expect(await isResetTokenCurrent(database.db, token)).toBe(true);
    const [stored] = await database.db.select().from(verifications).where(eq(verifications.identifier, `reset-password:${token}`));
    const validForMs = new Date(stored.expiresAt).getTime() - Date.now();
    expect(validForMs).toBeGreaterThan(59 * 60 * 1000);
    expect(validForMs).toBeLessThanOrEqual(60 * 60 * 1000);

    const common = await auth.handler(authRequest("/reset-password", { token, newPassword: "password123" }));
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({ code: "password_common" });

    const ok = await auth.handler(authRequest("/reset-password", { token, newPassword: "atarashii-Pass-77" }));
    expect(ok.status).toBe(200);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await mailsTo(email)).map((m) => m.subject)).toContain("【トレポケ】パスワードを変更しました");

    const again = await auth.handler(authRequest("/reset-password", { token, newPassword: "another-Pass-88" }));
    expect(again.status).toBe(400);
    expect(await isResetTokenCurrent(database.db, token)).toBe(false);

    const oldLogin = await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }));
    expect(oldLogin.status).toBe(401);
    const newLogin = await auth.handler(authRequest("/sign-in/email", { email, password: "atarashii-Pass-77" }));
    expect(newLogin.status).toBe(200);
  });

  it("an expired link is refused", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("expired");
    await signUp(email);
    await auth.handler(authRequest("/request-password-reset", { email }));
    const [mail] = (await mailsTo(email)).filter((m) => m.subject.includes("パスワードの再設定"));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    await database.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verifications.identifier, `reset-password:${token}`));
    expect(await isResetTokenCurrent(database.db, token)).toBe(false);
    const res = await auth.handler(authRequest("/reset-password", { token, newPassword: "atarashii-Pass-77" }));
    expect(res.status).toBe(400);
  });

  it("mails in English to a user whose language is English", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("english");
    await signUp(email);
    await auth.handler(authRequest("/request-password-reset", { email }, { lang: "en" }));
    const mails = await mailsTo(email);
    expect(mails.at(-1)).toMatchObject({ locale: "en", subject: "[Torepoke] Reset your password" });
  });
});
