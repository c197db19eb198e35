import { createECDH, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import webpush from "web-push";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { registerNotificationChannels } from "#app/notification-pipeline.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { NOTIFICATION_KINDS } from "#app/features/notifications/types.ts";
import { action as settingsAction, loader as settingsLoader } from "#app/routes/api.notifications.settings.ts";
import { action as subscriptionAction } from "#app/routes/api.push.subscription.ts";
import { action as testAction } from "#app/routes/api.push.send-test.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;
let push: TestPushService;
const workers: OutboxWorker[] = [];

async function signUp(): Promise<string> {
  const email = `p-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.6.0.1" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026", name: "プッシュ" }),
    }),
  );
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0];
}

/** Signs the session of `cookie` out, as the log-out button does. */
async function signOut(cookie: string): Promise<void> {
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: SITE, [CLIENT_IP_HEADER]: "10.6.0.1" } }),
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  database = await createTestDatabase();
  push = await startTestPushService();
  const vapid = webpush.generateVAPIDKeys();
  env = loadEnv({
    SITE_URL: SITE,
    BETTER_AUTH_SECRET: "s".repeat(40),
    AUTH_RATE_LIMIT_MAX: "1000",
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_SERVICE_ORIGINS: push.url,
  });
  context = { db: database.db, env, cspNonce: "n" };
  registerNotificationChannels({ env, db: database.db });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await push?.close();
  await database?.close();
});

const settled = (promise: Promise<unknown>) =>
  promise.then(
    (r) => r as Response,
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    },
  );

/** A browser's subscription at FCM (never contacted here). */
function subscription() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString("hex")}`,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

const call = (action: (args: never) => Promise<Response>, url: string, method: string, cookie: string, body?: unknown) =>
  settled(
    action({
      request: new Request(`${SITE}${url}`, { method, headers: { cookie, "content-type": "application/json", "accept-language": "ja" }, body: body === undefined ? undefined : JSON.stringify(body) }),
      context,
      params: {},
    } as never),
  );
const subscribe = (cookie: string, body: unknown) => call(subscriptionAction, "/api/push/subscription", "POST", cookie, body);
const settings = async (cookie: string, endpoint?: string) => {
  const res = await settled(
    settingsLoader({ request: new Request(`${SITE}/api/notifications/settings${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ""}`, { headers: { cookie } }), context, params: {} } as never),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { devices: number; thisDevice: boolean; mailDelaySeconds: number; previews: boolean; quiet: unknown };
};

describe("push routes", () => {
  it("the test-push route refuses other methods with the project's 405 (Japanese message and code)", async () => {
    const cookie = await signUp();
    const res = await call(testAction, "/api/push/test", "GET", cookie);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ error: "このURLではその操作はできません", code: "method_not_allowed" });
  });

  it("a subscription elsewhere than a push service, or with keys of the wrong size, is refused as invalid_subscription", async () => {
    const cookie = await signUp();
    const good = subscription();
    for (const body of [
      { ...good, endpoint: "https://10.0.0.1/push" },
      { ...good, endpoint: "http://localhost:3000/push" },
      { ...good, keys: { ...good.keys, auth: randomBytes(15).toString("base64url") } },
      { ...good, keys: { ...good.keys, p256dh: randomBytes(65).toString("base64url") } },
    ]) {
      const res = await subscribe(cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe("invalid_subscription");
    }
    expect((await settings(cookie)).devices).toBe(0);
  });

  it("the settings state the configured mail delay and keep the quiet hours' exempted channels and the preview choice", async () => {
    const cookie = await signUp();
    expect(await settings(cookie)).toMatchObject({ mailDelaySeconds: env.notificationMailDelaySeconds, previews: true, quiet: null });
    const channels = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, { site: "on", push: "instant", mail: "instant" }]));
    const saved = await call(settingsAction, "/api/notifications/settings", "PUT", cookie, { channels, quiet: { start: "23:00", end: "07:00", mode: "hold", exempt: ["mail"] }, previews: false });
    expect(saved.status).toBe(200);
    expect(await settings(cookie)).toMatchObject({ previews: false, quiet: { start: "23:00", end: "07:00", mode: "hold", exempt: ["mail"] } });
    // A save that leaves previews out keeps them; an unknown channel is refused with the settings' message.
    expect((await call(settingsAction, "/api/notifications/settings", "PUT", cookie, { channels, quiet: null })).status).toBe(200);
    expect(await settings(cookie)).toMatchObject({ previews: false, quiet: null });
    const refused = await call(settingsAction, "/api/notifications/settings", "PUT", cookie, { channels, quiet: { start: "23:00", end: "07:00", mode: "hold", exempt: ["site"] } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "invalid_settings", error: "通知設定の内容を確認してください。" });
  });

  it("the settings say whether THIS browser's endpoint is the viewer's; the same endpoint again is no new device; a shared browser moves on log-out", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const phone = subscription();
    const first = await subscribe(alice, phone);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ ok: true, devices: 1 });
    expect(await (await subscribe(alice, phone)).json()).toEqual({ ok: true, devices: 1 });
    expect(await settings(alice, phone.endpoint)).toMatchObject({ devices: 1, thisDevice: true });
    expect(await settings(alice, subscription().endpoint)).toMatchObject({ devices: 1, thisDevice: false });
    expect(await settings(alice)).toMatchObject({ thisDevice: false });
    // Bob on the same browser before Alice's endpoint was removed: not his.
    expect(await settings(bob, phone.endpoint)).toMatchObject({ devices: 0, thisDevice: false });
    // Alice logs out: the page deletes the endpoint first.
    expect((await call(subscriptionAction, "/api/push/subscription", "DELETE", alice, { endpoint: phone.endpoint })).status).toBe(204);
    expect(await settings(alice, phone.endpoint)).toMatchObject({ devices: 0, thisDevice: false });
  });

  it("an endpoint another account's live session subscribed is not moved to whoever posts it (409, the owner keeps receiving); after the owner signs out, the next player on that browser can take it", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const browser = await push.subscribe(env.vapid.publicKey);
    const phone = { endpoint: browser.endpoint, keys: browser.keys };
    const pushes = () => push.received.filter((r) => r.clientHash === browser.clientHash);
    const stored = async () =>
      (await rowsOf<{ user_id: string; p256dh: string }>(database.db, sql`select user_id, p256dh from push_subscriptions where endpoint = ${phone.endpoint}`))[0];
    expect((await subscribe(alice, phone)).status).toBe(201);
    const aliceId = (await stored()).user_id;

    // Bob knows the endpoint URL and posts it with keys of his own.
    const refused = await subscribe(bob, { endpoint: phone.endpoint, keys: subscription().keys });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "この端末のプッシュ通知は、別のアカウントで受け取る設定になっています。そのアカウントでログアウトしてから、もう一度お試しください。",
      code: "subscription_taken",
    });
    expect(await stored()).toEqual({ user_id: aliceId, p256dh: phone.keys.p256dh });
    expect(await settings(bob, phone.endpoint)).toMatchObject({ devices: 0, thisDevice: false });
    // Alice's pushes still reach her device, encrypted for its own keys.
    workers.push(startOutboxWorker({ db: database.db, pollMs: 20 }));
    expect((await call(testAction, "/api/push/test", "POST", alice)).status).toBe(202);
    await until(() => pushes().length === 1, "Alice's test push");
    expect(JSON.parse(pushes()[0].payload)).toMatchObject({ title: "トレポケ（テスト通知）" });

    // Alice signs out (her page's own removal of the endpoint did not get through): the binding ends with her session.
    await signOut(alice);
    expect(await stored()).toBeUndefined();
    const taken = await subscribe(bob, phone);
    expect(taken.status).toBe(201);
    expect(await taken.json()).toEqual({ ok: true, devices: 1 });
    expect((await call(testAction, "/api/push/test", "POST", bob)).status).toBe(202);
    await until(() => pushes().length === 2, "Bob's test push on the same browser");
  });

  it("a subscription without a recorded session stays with its owner while they have a live session; a binding whose session expired can be taken", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const carol = await signUp();
    const older = subscription();
    expect((await subscribe(alice, older)).status).toBe(201);
    await database.db.execute(sql`update push_subscriptions set session_id = null where endpoint = ${older.endpoint}`);
    expect((await subscribe(bob, older)).status).toBe(409);
    await signOut(alice);
    expect((await subscribe(bob, older)).status).toBe(201);
    // Bob's session runs out without a sign-out: the endpoint is no longer held for him.
    await database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where id = (select session_id from push_subscriptions where endpoint = ${older.endpoint})`,
    );
    expect((await subscribe(carol, older)).status).toBe(201);
    expect(await settings(carol, older.endpoint)).toMatchObject({ devices: 1, thisDevice: true });
  });

  it("subscribing is rate-limited per player (429 too_many_subscribes)", async () => {
    const cookie = await signUp();
    const statuses: number[] = [];
    // 22 tries: more than the limit in one minute window even if a minute boundary falls in between.
    for (let i = 0; i < 22; i++) statuses.push((await subscribe(cookie, subscription())).status);
    expect(statuses.slice(0, 10)).toEqual(new Array(10).fill(201));
    expect(statuses).toContain(429);
    const res = await subscribe(cookie, subscription());
    if (res.status === 429) expect(((await res.json()) as { code: string }).code).toBe("too_many_subscribes");
    expect((await settings(cookie)).devices).toBeLessThanOrEqual(10);
  });
});
