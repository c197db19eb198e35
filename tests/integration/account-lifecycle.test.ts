import { eq, or, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyticsEvents,
  analyticsVisitorUsers,
  blocks,
  chatMessages,
  chatRooms,
  notificationPreferences,
  notifications,
  profiles,
  pushSubscriptions,
  reports,
  sessions,
  tradeOfferCards,
  tradeOffers,
  tradeRuleChanges,
  uploads,
  users,
  wantedCards,
} from "#app/db/schema/index.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { markRead, sendMessage } from "#app/features/chat/chat.server.ts";
import { getRoomView } from "#app/features/chat/room-views.server.ts";
import type { MailMessage } from "#app/features/mail/mail.server.ts";
import { reportMessage } from "#app/features/moderation/moderation.server.ts";
import { AccountError } from "#app/features/users/account-errors.ts";
import {
  deleteAccount,
  exportAccountData,
  listSessions,
  maskAddress,
  resendVerification,
  revokeOtherSessions,
  revokeSession,
  VERIFY_RESEND_PER_HOUR,
} from "#app/features/users/account.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { ADDRESS_FAILURE_CAP } from "#app/features/users/sign-in-guard.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action as accountAction } from "#app/routes/profile.account.tsx";
import { action as loginAction } from "#app/routes/login.tsx";
import { accountSummaryCsv } from "#app/features/users/account-summary.server.ts";
import { createChatOffer, createChatUser, newClientId } from "#tests/support/chat-factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let ip = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "l".repeat(40), AUTH_RATE_LIMIT_MAX: "1000" });
});
afterAll(async () => {
  await database?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function authRequest(path: string, body: unknown, options: { cookie?: string; ua?: string; ip?: string } = {}) {
  const headers = new Headers({ "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: options.ip ?? `10.2.0.${++ip % 250}` });
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.ua) headers.set("user-agent", options.ua);
  return new Request(`${SITE}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}
const cookieOf = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))?.split(";")[0];
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("=")[1]).split(".")[0];

async function mailsTo(to: string): Promise<MailMessage[]> {
  const rows = await rowsOf<{ payload: MailMessage }>(database.db, sql`select payload from delivery_outbox where kind = 'mail' and payload->>'to' = ${to} order by id`);
  return rows.map((r) => r.payload);
}

async function signUp(email: string, name = "ライフ", password = "kouKan-2026-pass", ua?: string) {
  const res = await getAuth(database.db, env).handler(authRequest("/sign-up/email", { email, password, name, callbackURL: "/profile/account?verified=1" }, { ua }));
  expect(res.status).toBe(200);
  const [user] = await database.db.select().from(users).where(eq(users.email, email));
  return { id: user.id, cookie: cookieOf(res)!, password };
}

async function follow(url: string, cookie?: string) {
  return getAuth(database.db, env).handler(new Request(url, { headers: cookie ? { cookie } : {} }));
}

describe("address verification", () => {
  it("mails a link at sign-up that verifies the address; re-sending is limited per hour", async () => {
    const email = uniqueEmail("verify");
    const { id } = await signUp(email);
    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe("【トレポケ】メールアドレスの確認");
    const link = /http:\/\/torepoke\.test\/api\/auth\/verify-email\?\S+/.exec(mail.text)![0];

    for (let i = 0; i < VERIFY_RESEND_PER_HOUR; i++) expect(await resendVerification(database.db, env, id, "ja")).toBe(true);
    await expect(resendVerification(database.db, env, id, "ja")).rejects.toMatchObject({ code: "resend_limited", status: 429 });
    expect(await mailsTo(email)).toHaveLength(1 + VERIFY_RESEND_PER_HOUR);

    const res = await follow(link);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile/account?verified=1");
    const [user] = await database.db.select().from(users).where(eq(users.id, id));
    expect(user.emailVerified).toBe(true);
    // Verified: nothing more to send.
    expect(await resendVerification(database.db, env, id, "ja")).toBe(false);
  });

  it("REQUIRE_EMAIL_VERIFICATION=true makes sign-in wait for the link", async () => {
    const strict = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "l".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", REQUIRE_EMAIL_VERIFICATION: "true" });
    const auth = getAuth(database.db, strict);
    const email = uniqueEmail("strict");
    const signUpRes = await auth.handler(authRequest("/sign-up/email", { email, password: "kouKan-2026-pass", name: "厳格" }));
    expect(signUpRes.status).toBe(200);
    expect(cookieOf(signUpRes)).toBeUndefined();
    const refused = await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });
    const link = /http:\/\/torepoke\.test\/api\/auth\/verify-email\?\S+/.exec((await mailsTo(email))[0].text)![0];
    await auth.handler(new Request(link));
    const allowed = await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }));
    expect(allowed.status).toBe(200);
  });

  it("the verification mail's plain-text part speaks of the link, its HTML part of the button", async () => {
    const email = uniqueEmail("plain");
    await signUp(email);
    const [mail] = await mailsTo(email);
    expect(mail.text).not.toContain("ボタン");
    expect(mail.text).toContain("下のリンクを開いて、メールアドレスの確認を完了してください。");
    expect(mail.html).toContain("下のボタンを押して、メールアドレスの確認を完了してください。");
  });

  it("a log-in before verification says 確認メールを再送しました only when that attempt queued a mail", async () => {
    const strict = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "l".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", REQUIRE_EMAIL_VERIFICATION: "true" });
    const email = uniqueEmail("resend");
    expect((await getAuth(database.db, strict).handler(authRequest("/sign-up/email", { email, password: "kouKan-2026-pass", name: "再送" }))).status).toBe(200);
    const context = { db: database.db, env: strict, cspNonce: "test" } as unknown as AppLoadContext;
    const logIn = async () => {
      const body = new URLSearchParams({ email, password: "kouKan-2026-pass" });
      const request = new Request(`${SITE}/login`, { method: "POST", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", [CLIENT_IP_HEADER]: `10.3.0.${++ip % 250}` }, body });
      return (await loginAction({ request, context, params: {} } as unknown as Parameters<typeof loginAction>[0])) as { data: { code?: string; message?: string }; init?: { status?: number } };
    };
    // The sign-up's mail is minutes old: this attempt queues none (one per address per window).
    const soon = await logIn();
    expect(soon.data.code).toBe("email_not_verified");
    expect(await mailsTo(email)).toHaveLength(1);
    expect(soon.data.message).not.toContain("再送しました");
    expect(soon.data.message).toBe("メールアドレスの確認が済んでいません。少し前にお送りした確認メールのリンクを開いてください。届いていない場合は、数分たってからもう一度ログインすると再送します。");
    // Once the window has passed (its row gone here), the attempt queues a new mail and says so.
    await database.db.execute(sql`delete from delivery_outbox where kind = 'mail' and payload->>'to' = ${email}`);
    const later = await logIn();
    expect(await mailsTo(email)).toHaveLength(1);
    expect(later.data.message).toBe("メールアドレスの確認が済んでいません。登録時に届いた確認メールのリンクを開いてください（確認メールを再送しました）。");
  });
});

describe("change of address and password", () => {
  it("confirms a new address through a link sent to it, and tells the old address", async () => {
    const auth = getAuth(database.db, env);
    const oldEmail = uniqueEmail("old");
    const newEmail = uniqueEmail("new");
    const { id, cookie } = await signUp(oldEmail);
    const res = await auth.handler(authRequest("/change-email", { newEmail, callbackURL: "/profile/account?emailChanged=1" }, { cookie }));
    expect(res.status).toBe(200);
    const [confirm] = await mailsTo(newEmail);
    expect(confirm.subject).toBe("【トレポケ】新しいメールアドレスの確認");
    expect((await mailsTo(oldEmail)).map((m) => m.subject)).toContain("【トレポケ】メールアドレスの変更手続きがありました");
    expect((await mailsTo(oldEmail)).find((m) => m.subject.includes("変更手続き"))!.text).toContain(newEmail);
    // Not changed until the link is opened.
    expect((await database.db.select().from(users).where(eq(users.id, id)))[0].email).toBe(oldEmail);
    const link = /http:\/\/torepoke\.test\/api\/auth\/verify-email\?\S+/.exec(confirm.text)![0];
    const done = await follow(link, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/profile/account?emailChanged=1");
    const [user] = await database.db.select().from(users).where(eq(users.id, id));
    expect(user).toMatchObject({ email: newEmail, emailVerified: true });
  });

  it("the settings page asks for the current password before it sends a change-of-address link", async () => {
    const email = uniqueEmail("who");
    const newEmail = uniqueEmail("taken-over");
    const { cookie } = await signUp(email);
    const context = { db: database.db, env, cspNonce: "test" } as unknown as AppLoadContext;
    const submit = (fields: Record<string, string>) => {
      const body = new URLSearchParams({ intent: "changeEmail", ...fields });
      const request = new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" }, body });
      return accountAction({ request, context, params: {} } as unknown as Parameters<typeof accountAction>[0]) as Promise<{ data: { message?: string; fields?: Record<string, string>; ok?: boolean }; init?: { status?: number } }>;
    };
    for (const fields of [{ newEmail }, { newEmail, currentPassword: "not-the-password" }] as Record<string, string>[]) {
      const refused = await submit(fields);
      expect(refused.init?.status).toBe(400);
      expect(refused.data).toMatchObject({ message: "現在のパスワードが正しくありません", fields: { currentPassword: "現在のパスワードが正しくありません" } });
    }
    expect(await mailsTo(newEmail)).toHaveLength(0);
    const sent = await submit({ newEmail, currentPassword: "kouKan-2026-pass" });
    expect(sent).toMatchObject({ ok: true, sentTo: newEmail });
    expect((await mailsTo(newEmail)).map((m) => m.subject)).toEqual(["【トレポケ】新しいメールアドレスの確認"]);
  });

  it("a password change succeeds, with this device's new session cookie, even when its notice mail cannot be queued", async () => {
    const email = uniqueEmail("mailfail");
    const { id, cookie } = await signUp(email);
    // The outbox refuses the notice for this address only (as a full disk or a lost connection would).
    await database.db.execute(sql.raw(`create or replace function refuse_notice() returns trigger language plpgsql as $$
      begin
        if new.payload->>'to' = '${email}' and new.payload->>'subject' like '%パスワードを変更しました%' then raise exception 'outbox unavailable'; end if;
        return new;
      end $$`));
    await database.db.execute(sql`create trigger refuse_notice before insert on delivery_outbox for each row execute function refuse_notice()`);
    try {
      const context = { db: database.db, env: { ...env, logLevel: "silent" }, cspNonce: "test" } as unknown as AppLoadContext;
      const body = new URLSearchParams({ intent: "changePassword", currentPassword: "kouKan-2026-pass", newPassword: "atarashii-Pass-77" });
      const request = new Request(`${SITE}/profile/account`, { method: "POST", headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" }, body });
      const result = (await accountAction({ request, context, params: {} } as unknown as Parameters<typeof accountAction>[0])) as { data: { ok?: boolean }; init?: { status?: number; headers?: HeadersInit } };
      expect(result.data).toMatchObject({ ok: true });
      const newCookie = new Headers(result.init?.headers).getSetCookie().find((c) => c.startsWith("torepoke.session_token="));
      expect(newCookie).toBeDefined();
      const [session] = await database.db.select().from(sessions).where(eq(sessions.userId, id));
      expect(tokenOf(newCookie!.split(";")[0])).toBe(session.token);
    } finally {
      await database.db.execute(sql`drop trigger refuse_notice on delivery_outbox`);
    }
  });

  it("refuses a change-of-address link issued before the password was changed", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("stale");
    const newEmail = uniqueEmail("stale-new");
    const { id, cookie } = await signUp(email);
    expect((await auth.handler(authRequest("/change-email", { newEmail, callbackURL: "/profile/account?emailChanged=1" }, { cookie }))).status).toBe(200);
    const link = /http:\/\/torepoke\.test\/api\/auth\/verify-email\?\S+/.exec((await mailsTo(newEmail))[0].text)![0];
    const changed = await auth.handler(authRequest("/change-password", { currentPassword: "kouKan-2026-pass", newPassword: "atarashii-Pass-77" }, { cookie }));
    expect(changed.status).toBe(200);
    const res = await follow(link);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile/account?emailChanged=1&error=TOKEN_EXPIRED");
    expect((await database.db.select().from(users).where(eq(users.id, id)))[0].email).toBe(email);
  });

  it("changes the password only with the current one, refuses a common one, and ends the other sessions", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("pw");
    const { id, cookie } = await signUp(email);
    const other = cookieOf(await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" })))!;
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(2);
    const wrong = await auth.handler(authRequest("/change-password", { currentPassword: "not-the-password", newPassword: "atarashii-Pass-77" }, { cookie }));
    expect(wrong.status).toBe(400);
    const common = await auth.handler(authRequest("/change-password", { currentPassword: "kouKan-2026-pass", newPassword: "iloveyou1" }, { cookie }));
    expect(await common.json()).toMatchObject({ code: "password_common" });
    const ok = await auth.handler(authRequest("/change-password", { currentPassword: "kouKan-2026-pass", newPassword: "atarashii-Pass-77", revokeOtherSessions: true }, { cookie }));
    expect(ok.status).toBe(200);
    const left = await database.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(left).toHaveLength(1);
    expect(left[0].token).not.toBe(tokenOf(other));
  });
});

describe("sessions", () => {
  it("lists the account's devices with browser and OS, ends one, then all others, never another account's", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("devices");
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    const { id, cookie } = await signUp(email, "端末", "kouKan-2026-pass", iphone);
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
    const windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }, { ua: android }));
    await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }, { ua: windows }));
    const list = await listSessions(database.db, id, tokenOf(cookie));
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ current: true, browser: "Safari", os: "iOS" });
    expect(list.slice(1).map((s) => s.os).sort()).toEqual(["Android", "Windows"]);

    const stranger = await signUp(uniqueEmail("stranger"));
    const androidSession = list.find((s) => s.os === "Android")!;
    await expect(revokeSession(database.db, stranger.id, androidSession.id)).rejects.toBeInstanceOf(AccountError);
    await revokeSession(database.db, id, androidSession.id);
    expect(await listSessions(database.db, id, tokenOf(cookie))).toHaveLength(2);
    expect(await revokeOtherSessions(database.db, id, tokenOf(cookie))).toBe(1);
    expect(await listSessions(database.db, id, tokenOf(cookie))).toEqual([expect.objectContaining({ current: true })]);
  });

  it("tells two browsers of one kind apart by the address each signed in from, masked (the full address never leaves the server)", async () => {
    const auth = getAuth(database.db, env);
    const email = uniqueEmail("twins");
    const linuxChrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const { id, cookie } = await signUp(email, "双子", "kouKan-2026-pass", linuxChrome);
    await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }, { ua: linuxChrome, ip: "203.0.113.77" }));
    await auth.handler(authRequest("/sign-in/email", { email, password: "kouKan-2026-pass" }, { ua: linuxChrome, ip: "2001:db8:85a3:8d3:1319:8a2e:370:7348" }));
    const list = await listSessions(database.db, id, tokenOf(cookie));
    expect(list.map((s) => `${s.browser}（${s.os}）`)).toEqual(["Chrome（Linux）", "Chrome（Linux）", "Chrome（Linux）"]);
    const addresses = list.slice(1).map((s) => s.address).sort();
    expect(addresses).toEqual(["2001:0db8:85a3:08d3:****", "203.0.113.***"]);
    expect(list[0].address).toMatch(/^10\.2\.0\.\*\*\*$/);
    // The full address never leaves the server.
    expect(JSON.stringify(list)).not.toContain("203.0.113.77");
    expect(JSON.stringify(list)).not.toContain("7348");
    expect(maskAddress("::ffff:198.51.100.4")).toBe("198.51.100.***");
    expect(maskAddress("2001:db8::1")).toBe("2001:db8:****");
    expect(maskAddress("not an address")).toBeNull();
    expect(maskAddress(null)).toBeNull();
  });
});

/** A signed-up user with an offer, a chat room with messages, a report and a block. */
async function busyUser(name: string, friendId: string) {
  const email = uniqueEmail("busy");
  const me = await signUp(email, name);
  await database.db.update(profiles).set({ friendId }).where(eq(profiles.userId, me.id));
  const partner = await createChatUser(database.db, { name: `相手${friendId.slice(-4)}`, friendId: "9999888877776666" });
  const stranger = await createChatUser(database.db, { name: "無関係", friendId: "5555444433332222" });
  const myOffer = await createChatOffer(database.db, me.id);
  const theirOffer = await createChatOffer(database.db, partner.id);
  const [room] = await database.db.insert(chatRooms).values({ offerId: theirOffer.id, ownerId: partner.id, partnerId: me.id }).returning({ id: chatRooms.id });
  await database.db.update(tradeOffers).set({ status: "negotiating", partnerId: me.id }).where(eq(tradeOffers.id, theirOffer.id));
  await sendMessage(database.db, { roomId: room.id, userId: me.id, clientId: newClientId(), body: "交換お願いします" });
  const reply = await sendMessage(database.db, { roomId: room.id, userId: partner.id, clientId: newClientId(), body: "いいですよ" });
  const [stored] = await database.db.select().from(chatMessages).where(eq(chatMessages.id, (reply as { message: { id: string } }).message.id));
  await reportMessage(database.db, { reporterId: me.id, messageId: stored.id, reason: "spam" });
  await database.db.insert(blocks).values({ blockerId: me.id, blockedId: stranger.id });
  const [wanted] = await database.db.select({ cardId: tradeOfferCards.cardId }).from(tradeOfferCards).where(eq(tradeOfferCards.offerId, theirOffer.id)).limit(1);
  await database.db.insert(wantedCards).values({ userId: me.id, cardId: wanted.cardId });
  await database.db.insert(analyticsEvents).values({ kind: "offer_posted", userId: me.id, offerId: myOffer.id });
  await database.db.insert(analyticsVisitorUsers).values({ day: "2026-11-25", visitor: 42n, userId: me.id });
  await database.db.insert(pushSubscriptions).values({
    userId: me.id,
    endpoint: `https://push.example.test/send/export-device-${me.id}`,
    p256dh: "BExportDeviceKey",
    auth: "export-device-auth-secret",
    userAgent: "Firefox 140",
    locale: "en",
  });
  await database.db.insert(notificationPreferences).values({
    userId: me.id,
    channels: { message: { push: "off", mail: "digest" } },
    quietStart: 1380,
    quietEnd: 420,
    quietMode: "silent",
    locale: "en",
  });
  return { ...me, email, wantedCardId: wanted.cardId, partner, stranger, myOffer, theirOffer, roomId: room.id };
}

describe("export", () => {
  it("adds a readable CSV: the offers, chats and want list with card names and Japan time, in the reader's language", async () => {
    const u = await busyUser("一覧", "3333444455556666");
    const csv = await accountSummaryCsv(database.db, env, u.id, "ja");
    expect(csv.startsWith("\uFEFF区分,日時（日本時間）,内容\r\n")).toBe(true);
    const lines = csv.slice(1).trim().split("\r\n");
    expect(lines).toContainEqual(expect.stringMatching(/^トレード募集,\d{4}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2},譲: ピカチュウex ◆◆◆◆ 求: リザードンex ◆◆◆◆（募集中）$/));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^チャット,[^,]+,${u.partner.name}とのチャット（メッセージ 2件）$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^ほしいカード,[^,]+,(ピカチュウex|リザードンex) ◆◆◆◆$/));
    expect(lines).toContainEqual(expect.stringMatching(/^プロフィール,[^,]+,表示名: 一覧 フレンドID: 3333444455556666 成立: 0件$/));
    // Japan time, not UTC: the account's creation in JST.
    const [account] = await database.db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, u.id));
    const jst = new Date(account.createdAt.getTime() + 9 * 3600_000).toISOString();
    expect(lines[1]).toContain(`${jst.slice(0, 4)}/${jst.slice(5, 7)}/${jst.slice(8, 10)} ${Number(jst.slice(11, 13))}:${jst.slice(14, 16)}:${jst.slice(17, 19)}`);
    // Cards by name, never by id.
    expect(csv).not.toContain(u.wantedCardId);
    const en = await accountSummaryCsv(database.db, env, u.id, "en");
    expect(en).toContain("Kind,Time (Japan),Content");
    expect(en).toContain("Give: ピカチュウex ◆◆◆◆ Want: リザードンex ◆◆◆◆ (Open)");
  });

  it("holds the user's profile, offers, chats with messages, reports and blocks, without other users' private data", async () => {
    const u = await busyUser("書き出し", "1111222233334444");
    const file = await exportAccountData(database.db, env, u.id);
    const text = JSON.stringify(file);
    expect(file.account.email).toBe(u.email);
    expect(file.profile).toMatchObject({ displayName: "書き出し", friendId: "1111222233334444" });
    expect(file.tradeOffers.map((o) => o.id)).toEqual([u.myOffer.id]);
    expect(file.tradeOffers[0].cards).toHaveLength(2);
    expect(file.chatRooms).toHaveLength(1);
    expect(file.chatRooms[0].messages.map((m) => [m.from, m.body])).toEqual([
      ["me", "交換お願いします"],
      ["partner", "いいですよ"],
    ]);
    expect(file.reportsFiled).toHaveLength(1);
    expect(file.blocks).toEqual([expect.objectContaining({ displayName: "無関係" })]);
    expect(file.mails.map((m) => m.subject)).toContain("【トレポケ】メールアドレスの確認");
    expect(file.wantedCards).toEqual([expect.objectContaining({ cardId: u.wantedCardId })]);
    // The partner's reply is in the inbox, named as the partner appears on the site.
    expect(file.notifications).toEqual([expect.objectContaining({ kind: "message", actorDisplayName: u.partner.name, roomId: u.roomId, mailedAt: null })]);
    expect(file.pushSubscriptions).toEqual([
      { endpoint: `https://push.example.test/send/export-device-${u.id}`, userAgent: "Firefox 140", locale: "en", createdAt: expect.any(Date), lastSuccessAt: null },
    ]);
    expect(text).not.toContain("export-device-auth-secret");
    expect(file.notificationSettings).toMatchObject({ quietStart: 1380, quietEnd: 420, quietMode: "silent", locale: "en", digestSentAt: null });
    expect(file.notificationSettings?.channels).toMatchObject({ message: { push: "off", mail: "digest" } });
    // Other users: display names only; no e-mail, no id, and the partner's friend ID is not revealed before 条件合意.
    for (const secret of [u.partner.id, `${u.partner.id}@example.com`, "9999888877776666", u.stranger.id, "5555444433332222"]) expect(text).not.toContain(secret);
    await database.db.update(chatRooms).set({ ownerAgreedAt: new Date(), partnerAgreedAt: new Date() }).where(eq(chatRooms.id, u.roomId));
    const agreed = await exportAccountData(database.db, env, u.id);
    expect(agreed.chatRooms[0].partner).toEqual({ displayName: u.partner.name, friendId: "9999888877776666" });
  });

  it("keeps an offer's 何でも可 side: the export says which side takes any card of the named side's rarity", async () => {
    const u = await busyUser("何でも可", "3333444455556666");
    await database.db.execute(sql`update trade_offers set want_any = true where id = ${u.myOffer.id}::uuid`);
    const file = await exportAccountData(database.db, env, u.id);
    expect(file.tradeOffers[0]).toMatchObject({ id: u.myOffer.id, giveAny: false, wantAny: true });
    // The readable CSV says so too, and an open offer past its expiry reads as expired.
    await database.db.execute(sql`update trade_offers set expires_at = now() - interval '1 minute' where id = ${u.myOffer.id}::uuid`);
    const csv = await accountSummaryCsv(database.db, env, u.id, "ja");
    expect(csv).toContain("譲: ピカチュウex ◆◆◆◆ 求: 何でも可（同じレアリティ）（期限切れ）");
  });

  it("also holds the account's role, read positions, sign-in failures, hourly counts, activity records and what it wrote as an administrator", async () => {
    const u = await busyUser("全部入り", "2222333344445555");
    // A wrong password against the address, from some client; an administrator's trade-rule change and upload.
    const refused = await getAuth(database.db, env).handler(authRequest("/sign-in/email", { email: u.email, password: "wrong-password-9" }, { ip: "10.9.9.9" }));
    expect(refused.status).toBe(401);
    await database.db.update(users).set({ role: "admin" }).where(eq(users.id, u.id));
    await database.db.insert(tradeRuleChanges).values({ scope: "rarity", target: "☆☆", tradeable: false, effectiveAt: new Date("2026-01-01T00:00:00Z"), note: "書き出しの確認", createdBy: u.id });
    await database.db.insert(uploads).values({ key: `articles/${Date.now()}-export.webp`, folder: "articles", contentType: "image/webp", bytes: 10, width: 1, height: 1, uploadedBy: u.id });
    await markRead(database.db, u.roomId, u.id, 1);
    await resendVerification(database.db, env, u.id, "ja");

    const file = await exportAccountData(database.db, env, u.id);
    const text = JSON.stringify(file);
    expect(file.account.role).toBe("admin");
    expect(file.profile).toMatchObject({ suspendedAt: null });
    expect(file.signInFailures).toMatchObject({ failures: 1 });
    // Where a failed attempt came from may be someone else: not in the file.
    expect(text).not.toContain("10.9.9.9");
    expect(file.actionCounts).toEqual(expect.arrayContaining([expect.objectContaining({ action: "verify_resend", count: 1 }), expect.objectContaining({ action: "report", count: 1 })]));
    expect(file.activity.events).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "offer_posted", offerId: u.myOffer.id })]));
    expect(file.activity.daysSeen).toEqual(["2026-11-25"]);
    expect(file.administration.tradeRuleChanges).toEqual([expect.objectContaining({ scope: "rarity", target: "☆☆", note: "書き出しの確認" })]);
    expect(file.administration.uploads).toEqual([expect.objectContaining({ folder: "articles", contentType: "image/webp" })]);
    expect(file.administration).toMatchObject({ articles: [], decks: [], siteSettingsSavedAt: null });
    expect(file.chatRooms[0].readUpToSeq).toBe(1);
    expect(file.wantedCards).toEqual([expect.objectContaining({ cardId: u.wantedCardId })]);
  });
});

describe("deletion", () => {
  it("needs the password; then in one go ends sessions, closes offers, erases the profile and address, keeps messages as 退会したユーザー and reports without the reporter", async () => {
    const u = await busyUser("消える太郎", "7777666655554444");
    // busyUser subscribed a device and saved notification settings: deletion removes both.
    await expect(deleteAccount(database.db, env, u.id, { password: "wrong-password-1", locale: "ja" })).rejects.toMatchObject({ code: "password_wrong" });
    expect((await database.db.select().from(users).where(eq(users.id, u.id)))[0].email).toBe(u.email);

    await deleteAccount(database.db, env, u.id, { password: u.password, locale: "ja" });

    expect(await database.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    // No device of theirs receives pushes any more.
    expect(await rowsOf(database.db, sql`select 1 from push_subscriptions where user_id = ${u.id} union all select 1 from notification_preferences where user_id = ${u.id}`)).toHaveLength(0);
    const [mine] = await database.db.select().from(tradeOffers).where(eq(tradeOffers.id, u.myOffer.id));
    expect(mine.status).toBe("closed");
    const [theirs] = await database.db.select().from(tradeOffers).where(eq(tradeOffers.id, u.theirOffer.id));
    expect(theirs).toMatchObject({ status: "open", partnerId: null });
    // The partner still reads the whole conversation, from 退会したユーザー.
    const view = await getRoomView(database.db, u.roomId, u.partner.id);
    expect(view.partner.displayName).toBe("退会したユーザー");
    expect(view.partner.friendId).toBeNull();
    expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, u.roomId))).toHaveLength(2);
    // The report stays for moderation; its reporter is the nameless row.
    const [report] = await database.db.select().from(reports).where(eq(reports.reporterId, u.id));
    expect(report).toBeDefined();
    // A mail confirms the deletion to the old address.
    expect((await mailsTo(u.email)).map((m) => m.subject)).toEqual(["【トレポケ】退会手続きが完了しました"]);

    // Nothing else of the user remains anywhere in the database than what the privacy policy names:
    // the nameless row (id, 退会したユーザー), their chat messages and closed offers, reports by id,
    // and the deletion mail in the outbox until it has been sent (then kept 7 days).
    const personal = [u.email, "消える太郎", "7777666655554444", u.cookie.split("=")[1].split(".")[0].slice(0, 20)];
    const columns = await rowsOf<{ table_name: string; column_name: string }>(
      database.db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'jsonb', 'character varying', 'ARRAY')`,
    );
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      for (const value of personal) {
        const hits = await rowsOf<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text like ${`%${value}%`}`,
        );
        if (hits[0].n > 0) found.push(`${table_name}.${column_name} has ${value} (${hits[0].n})`);
      }
    }
    expect(found).toEqual(["delivery_outbox.payload has " + u.email + " (1)"]);

    // Rows keyed by the user's id that nothing needs any more: the row is kept, so no cascade removes them.
    expect(await database.db.select().from(wantedCards).where(eq(wantedCards.userId, u.id))).toEqual([]);
    expect(await database.db.select().from(notifications).where(or(eq(notifications.userId, u.id), eq(notifications.actorId, u.id)))).toEqual([]);
    expect(await database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.id))).toEqual([]);
    expect(await database.db.select().from(analyticsEvents).where(eq(analyticsEvents.offerId, u.myOffer.id))).toHaveLength(1);
    expect(await database.db.select().from(analyticsVisitorUsers).where(eq(analyticsVisitorUsers.userId, u.id))).toEqual([]);

    // Last, since a refused attempt counts against the address (sign_in_failures):
    // signing in with the old address and password no longer works.
    const login = await getAuth(database.db, env).handler(authRequest("/sign-in/email", { email: u.email, password: u.password }));
    expect(login.status).toBe(401);

  });
});

describe("per-account sign-in limit", () => {
  const signIn = (email: string, password: string, ip: string) => getAuth(database.db, env).handler(authRequest("/sign-in/email", { email, password }, { ip }));
  const failuresOf = async (email: string) =>
    (
      await rowsOf<{ failures: number; minutes: number | null }>(
        database.db,
        sql`select failures, round(extract(epoch from blocked_until - now()) / 60)::int as minutes from sign_in_failures where email_key = ${email.toLowerCase()}`,
      )
    )[0];
  const endWait = (email: string) => database.db.execute(sql`update sign_in_failures set blocked_until = now() - interval '1 second' where email_key = ${email.toLowerCase()}`);

  it("after 5 wrong passwords the failing client waits a short back-off; another client with the right password gets in and clears it", async () => {
    const email = uniqueEmail("brute");
    await signUp(email);
    const other = uniqueEmail("bystander");
    await signUp(other);
    for (let i = 0; i < 5; i++) expect((await signIn(email, `wrong-guess-${i}`, "10.9.1.1")).status).toBe(401);
    const locked = await signIn(email.toUpperCase(), "kouKan-2026-pass", "10.9.1.1");
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: "account_locked", message: expect.stringContaining("1分ほど待ってから") });
    // Another account is not affected.
    expect((await signIn(other, "kouKan-2026-pass", "10.9.1.1")).status).toBe(200);
    // The owner, on a client that never failed for the address, signs in, and the count is gone.
    expect((await signIn(email, "kouKan-2026-pass", "10.9.1.2")).status).toBe(200);
    expect(await failuresOf(email)).toBeUndefined();
  });

  it("one wrong password after the wait does not start the next wait; three do, twice as long", async () => {
    const email = uniqueEmail("retry");
    await signUp(email);
    for (let i = 0; i < 5; i++) await signIn(email, `wrong-guess-${i}`, "10.9.2.1");
    await endWait(email);
    expect((await signIn(email, "still-wrong-1", "10.9.2.1")).status).toBe(401);
    expect((await failuresOf(email)).minutes).toBeLessThanOrEqual(0);
    expect((await signIn(email, "still-wrong-2", "10.9.2.1")).status).toBe(401);
    expect((await signIn(email, "still-wrong-3", "10.9.2.1")).status).toBe(401);
    expect(await failuresOf(email)).toEqual({ failures: 8, minutes: 2 });
    expect((await signIn(email, "kouKan-2026-pass", "10.9.2.1")).status).toBe(429);
  });

  it("past the per-address cap every client waits, until a password reset clears the count", async () => {
    const email = uniqueEmail("capped");
    await signUp(email);
    for (let i = 0; i < 5; i++) await signIn(email, `wrong-guess-${i}`, `10.9.3.${i}`);
    await database.db.execute(sql`update sign_in_failures set failures = ${ADDRESS_FAILURE_CAP} where email_key = ${email.toLowerCase()}`);
    expect((await signIn(email, "kouKan-2026-pass", "10.9.3.200")).status).toBe(429);

    const auth = getAuth(database.db, env);
    await auth.handler(authRequest("/request-password-reset", { email, redirectTo: "/reset-password" }));
    const resetMail = (await mailsTo(email)).find((m) => m.text.includes("/reset-password?token="))!;
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1];
    expect((await auth.handler(authRequest("/reset-password", { token, newPassword: "atarashii-Pass-77" }))).status).toBe(200);
    expect(await failuresOf(email)).toBeUndefined();
    expect((await signIn(email, "atarashii-Pass-77", "10.9.3.1")).status).toBe(200);
  });
});
