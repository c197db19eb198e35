import type { Browser, BrowserContext } from "playwright-core";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";
import { signUp } from "#tests/support/chat-e2e.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { freePort, startServer, type RunningServer } from "#tests/support/server.ts";
import { deliverPushToServiceWorker } from "#tests/support/service-worker.ts";
import { until } from "#tests/support/wait.ts";

let browser: Browser;
let server: RunningServer;
let push: TestPushService;
const oldKeys = webpush.generateVAPIDKeys();
const newKeys = webpush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startTestPushService();
  browser = await launchBrowser();
  metricsPort = await freePort();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await push?.close();
});

type Sub = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * PushManager answering with subscriptions made at the local push service, one per site key
 * (headless Chromium cannot subscribe at a real one). Like a browser's, the subscription knows
 * the key it was made for (options.applicationServerKey) and outlives a page load.
 */
async function stubPushManager(context: BrowserContext, byKey: Record<string, Sub>) {
  await context.addInitScript((subs) => {
    const KEPT = "test-push-key";
    const kept = (value?: string | null): string | null => {
      try {
        if (value === undefined) return localStorage.getItem(KEPT);
        if (value === null) localStorage.removeItem(KEPT);
        else localStorage.setItem(KEPT, value);
      } catch {
        // about:blank has no storage
      }
      return null;
    };
    const toBase64Url = (key: BufferSource) => {
      const bytes = ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array(key);
      return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    };
    const fromBase64Url = (key: string) => Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
    let current: PushSubscription | null = null;
    const fake = (key: string) =>
      ({
        endpoint: subs[key].endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: fromBase64Url(key) },
        getKey: () => null,
        toJSON: () => ({ endpoint: subs[key].endpoint, expirationTime: null, keys: subs[key].keys }),
        unsubscribe: async () => {
          current = null;
          kept(null);
          return true;
        },
      }) as unknown as PushSubscription;
    const saved = kept();
    if (saved && subs[saved]) current = fake(saved);
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey ? toBase64Url(options.applicationServerKey as BufferSource) : "";
      if (!subs[key]) throw new DOMException("no subscription for this key", "AbortError");
      current = fake(key);
      kept(key);
      return current;
    };
    PushManager.prototype.getSubscription = async function () {
      return current;
    };
  }, byKey);
}

let metricsPort: number;
const env = () => ({ PUSH_SERVICE_ORIGINS: push.url, LOG_LEVEL: "warn", METRICS_PORT: String(metricsPort) });

/**
 * Every queued delivery is done, read from the server's outbox_pending_rows figure (the database
 * lives inside the server here): nothing more can arrive, so a count taken now is final.
 */
const pendingIsZero = async () => /^outbox_pending_rows 0$/m.test(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
const settled = () =>
  until(
    // The figure is read at most once a second, so a 0 is trusted only when a read made more
    // than a second later says 0 too (that one was counted after the first was asked for).
    async () => {
      if (!(await pendingIsZero())) return false;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      return pendingIsZero();
    },
    "the outbox to drain",
    60_000,
  );
/** A push goes through the outbox worker's rounds; on a busy machine that takes seconds. */
const PUSH_WAIT_MS = 60_000;

describe("push after the site's key pair is replaced", () => {
  it("the settings page finds this browser subscribed for the old key, subscribes again for the new one and swaps the device at the server; a later subscription change in the service worker is sent to the server too", async () => {
    server = await startServer({ ...env(), VAPID_PUBLIC_KEY: oldKeys.publicKey, VAPID_PRIVATE_KEY: oldKeys.privateKey });
    const forOld = await push.subscribe(oldKeys.publicKey);
    const forNew = await push.subscribe(newKeys.publicKey);
    const context = await newContext(browser);
    await stubPushManager(context, { [oldKeys.publicKey]: forOld, [newKeys.publicKey]: forNew });
    await context.grantPermissions(["notifications"], { origin: server.url });
    await signUp(context.request, server.url, "カギ", String(Math.floor(Math.random() * 1e16)).padStart(16, "3"));
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/profile`);
    await page.getByTestId("push-enable").click();
    await page.getByTestId("push-device").and(page.locator('[data-state="on"]')).waitFor();
    await page.close();
    const pushesTo = (hash: string) => push.received.filter((r) => r.clientHash === hash);

    // The operator replaces the key pair (same address, same data): the old subscription would be refused.
    const { port, dataDir } = server;
    expect(await server.stop()).toBe(0);
    server = await startServer({ ...env(), PORT: String(port), DATA_DIR: dataDir, VAPID_PUBLIC_KEY: newKeys.publicKey, VAPID_PRIVATE_KEY: newKeys.privateKey });

    const again = await context.newPage();
    const againProblems = watchConsole(again);
    await again.goto(`${server.url}/profile`);
    await again.getByTestId("push-device").and(again.locator('[data-state="on"]')).waitFor();
    await again.getByText("プッシュ通知を受け取る端末: 1台").waitFor();
    expect(await again.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint)).toBe(forNew.endpoint);
    const settings = (await (await context.request.get(`${server.url}/api/notifications/settings?endpoint=${encodeURIComponent(forOld.endpoint)}`)).json()) as { devices: number; thisDevice: boolean };
    expect(settings).toMatchObject({ devices: 1, thisDevice: false });

    // The test push reaches the new subscription only, signed with the new key, and the real service worker shows it.
    await again.getByTestId("push-test").click();
    await again.getByText("テスト通知を送りました。").waitFor();
    await until(() => pushesTo(forNew.clientHash).length === 1, "the test push to the new subscription", PUSH_WAIT_MS);
    await settled();
    expect(pushesTo(forNew.clientHash)).toHaveLength(1);
    expect(pushesTo(forOld.clientHash)).toHaveLength(0);
    const shown = await deliverPushToServiceWorker(context, again, pushesTo(forNew.clientHash)[0].payload);
    expect(shown.map(({ title, tag }) => ({ title, tag }))).toEqual([{ title: "トレポケ（テスト通知）", tag: "test" }]);

    // The browser replaces the subscription itself (pushsubscriptionchange, fired in the real
    // service worker here): the worker registers the new one with the session and drops the old.
    const replacement = await push.subscribe(newKeys.publicKey);
    const [worker] = context.serviceWorkers();
    await worker.evaluate(
      async ({ old, next }) => {
        const scope = self as unknown as { dispatchEvent(e: Event): boolean; ExtendableEvent: new (type: string) => Event & { waitUntil(p: Promise<unknown>): void } };
        const event = new scope.ExtendableEvent("pushsubscriptionchange");
        let done: Promise<unknown> = Promise.resolve();
        event.waitUntil = (p) => void (done = p);
        Object.assign(event, {
          oldSubscription: { endpoint: old.endpoint, options: { userVisibleOnly: true, applicationServerKey: null } },
          newSubscription: { endpoint: next.endpoint, toJSON: () => ({ endpoint: next.endpoint, expirationTime: null, keys: next.keys }) },
        });
        scope.dispatchEvent(event);
        await done;
      },
      { old: forNew, next: replacement },
    );
    const after = (endpoint: string) => context.request.get(`${server.url}/api/notifications/settings?endpoint=${encodeURIComponent(endpoint)}`).then((r) => r.json() as Promise<{ devices: number; thisDevice: boolean }>);
    expect(await after(replacement.endpoint)).toMatchObject({ devices: 1, thisDevice: true });
    expect(await after(forNew.endpoint)).toMatchObject({ thisDevice: false });
    const test = await context.request.post(`${server.url}/api/push/test`, { headers: { origin: server.url } });
    expect(test.ok()).toBe(true);
    await until(() => pushesTo(replacement.clientHash).length === 1, "the test push to the replacement", PUSH_WAIT_MS);
    await settled();
    expect(pushesTo(replacement.clientHash)).toHaveLength(1);
    expect(pushesTo(forNew.clientHash)).toHaveLength(1);

    expect(problems).toEqual([]);
    expect(againProblems).toEqual([]);
    await context.close();
  }, 180_000);
});
