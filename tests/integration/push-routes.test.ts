import { createECDH, randomBytes } from "node:crypto";
import type { AppLoadContext } from "react-router";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, getAuth } from "../../app/features/users/auth.server";
import { loadEnv, type Env } from "../../app/lib/env.server";
import { loader as settingsLoader } from "../../app/routes/api.notifications.settings";
import { action as subscriptionAction } from "../../app/routes/api.push.subscription";
import { action as testAction } from "../../app/routes/api.push.send-test";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;

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

beforeAll(async () => {
  database = await createTestDatabase();
  const vapid = webpush.generateVAPIDKeys();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "s".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey });
  context = { db: database.db, env, cspNonce: "n" };
});
afterAll(async () => {
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
  return (await res.json()) as { devices: number; thisDevice: boolean };
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
