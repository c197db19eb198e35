import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { startTestSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { deliverPushToServiceWorker } from "#tests/support/service-worker.ts";
import { until } from "#tests/support/wait.ts";

const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

let browser: Browser;
let server: RunningServer;
let smtp: TestSmtpServer;
let push: TestPushService;
let baseUrl: string;

// Its own server: mail over the test SMTP server, and the "unread and away" mail after 3 s, not 10 minutes.
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  push = await startTestPushService();
  server = await startServer({ SMTP_URL: smtp.url, NOTIFICATION_MAIL_DELAY_SECONDS: "3", PUSH_SERVICE_ORIGINS: push.url });
  baseUrl = server.url;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await push?.close();
  await smtp?.close();
});

const bellCount = (page: Page) => page.getByTestId("notification-count").locator('[aria-hidden="true"]');

/** Confirms the address with the link of the verification mail sign-up sent (mail goes only to verified addresses). */
async function verifyAddress(context: BrowserContext, email: string) {
  await until(() => smtp.to(email).length > 0, "the verification mail");
  const link = /https?:\/\/\S+verify-email\S+/.exec(smtp.to(email)[0].text ?? "")?.[0];
  expect(link).toBeTruthy();
  const res = await context.request.get(link!, { maxRedirects: 0 });
  expect(res.status()).toBeLessThan(400);
}

/**
 * Headless Chromium cannot reach a real push service: PushManager.subscribe answers a
 * subscription made at the local push service for the site's key; the real service worker
 * still registers and shows what is delivered to it.
 */
async function stubPushManager(context: BrowserContext, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  await context.addInitScript((sub) => {
    // Like a browser, the subscription outlives a page load (kept for the origin).
    const KEPT = "test-push-subscribed";
    const kept = (value?: boolean) => {
      try {
        if (value === undefined) return localStorage.getItem(KEPT) !== null;
        if (value) localStorage.setItem(KEPT, "1");
        else localStorage.removeItem(KEPT);
      } catch {
        // about:blank has no storage
      }
      return false;
    };
    let current: PushSubscription | null = null;
    const fake = {
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: () => null,
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => {
        current = null;
        kept(false);
        return true;
      },
    } as unknown as PushSubscription;
    if (kept()) current = fake;
    PushManager.prototype.subscribe = async function () {
      current = fake;
      kept(true);
      return fake;
    };
    PushManager.prototype.getSubscription = async function () {
      return current;
    };
  }, subscription);
}

describe("notifications outside the site: push and mail", () => {
  it("A turns push on with a tap; B's answer reaches A's device and A's service worker, the mail comes when A is away, and reading clears it", async () => {
    const aContext = await newContext(browser, PHONE);
    const bContext = await newContext(browser);
    const aUser = await signUp(aContext.request, baseUrl, "アカリ", digits());
    await signUp(bContext.request, baseUrl, "ボタン", digits());
    await verifyAddress(aContext, aUser.email);

    const settings = (await (await aContext.request.get(`${baseUrl}/api/notifications/settings`)).json()) as { vapidPublicKey: string; devices: number };
    expect(settings.devices).toBe(0);
    const subscription = await push.subscribe(settings.vapidPublicKey);
    await stubPushManager(aContext, subscription);
    await aContext.grantPermissions(["notifications"], { origin: baseUrl });

    // Nothing is asked on page load: push turns on from the button only.
    const a = await aContext.newPage();
    const aProblems = watchConsole(a);
    await a.goto(`${baseUrl}/profile`);
    const device = a.getByTestId("push-device");
    await device.and(a.locator('[data-state="off"]')).waitFor();
    await expect(a.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r ?? null))).resolves.toBeNull();
    expect(await seriousA11yViolations(a)).toEqual([]);
    await a.getByTestId("push-enable").click();
    await device.and(a.locator('[data-state="on"]')).waitFor();
    await a.getByText("プッシュ通知を受け取る端末: 1台").waitFor();

    // The test button reaches the device.
    await a.getByTestId("push-test").click();
    await a.getByText("テスト通知を送りました。").waitFor();
    await until(() => push.received.some((r) => r.clientHash === subscription.clientHash && JSON.parse(r.payload).tag === "test"), "the test push", 30_000);

    const [give, want] = await twoTradeableCards(aContext.request, baseUrl);
    const offerId = await postOffer(aContext.request, baseUrl, give, want);
    await a.goto(`${baseUrl}/trades`);

    // B answers and writes while A is on another page: A's count rises live, and A's device gets the push.
    const roomId = await respond(bContext.request, baseUrl, offerId);
    const b = await bContext.newPage();
    const bProblems = watchConsole(b);
    await b.goto(`${baseUrl}/chat/${roomId}`);
    await b.getByText("接続中...").waitFor({ state: "detached" });
    await b.locator("#chat-input").fill("はじめまして！交換お願いします");
    await b.locator("#chat-input").press("Enter");
    await b.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
    await a.waitForFunction(() => document.title.startsWith("(2) "));
    await expect(bellCount(a).textContent()).resolves.toBe("2");
    const pushesOfA = () => push.received.filter((r) => r.clientHash === subscription.clientHash).map((r) => ({ ...r, message: JSON.parse(r.payload) }));
    await until(() => pushesOfA().some((p) => p.message.url === `/chat/${roomId}` && /新しいメッセージ/.test(p.message.body)), "the message push", 30_000);

    // A leaves (no socket left); B writes again: a push, and the mail once it is still unread 3 s later.
    await a.close();
    await b.locator("#chat-input").fill("まだいらっしゃいますか？");
    await b.locator("#chat-input").press("Enter");
    await b.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
    // The push names the offer's cards and quotes the message's first line.
    const secondBody = /^ボタンさんから新しいメッセージが2件あります（譲 .+ ⇄ 求 .+）\n「まだいらっしゃいますか？」$/;
    await until(() => pushesOfA().some((p) => secondBody.test(p.message.body)), "the second push", 30_000);
    const second = pushesOfA().find((p) => secondBody.test(p.message.body))!;
    expect(second.topic).toBeTruthy();
    expect(second.urgency).toBe("high");
    expect(second.ttl).toBe("86400");
    // The 交渉 and the messages of the room, all unread while A was here, come in one mail.
    const isNotice = (m: { subject?: string }) => /^【トレポケ】ボタンさんがあなたの募集に交渉を申し込みました（譲 .+ ⇄ 求 .+）$/.test(m.subject ?? "");
    await until(() => smtp.to(aUser.email).some(isNotice), "the mail to A", 20_000);
    const mail = smtp.to(aUser.email).find(isNotice)!;
    expect(mail.text).toContain("ボタンさんから新しいメッセージが2件あります（譲 ");
    expect(mail.text).toContain("「まだいらっしゃいますか？」");
    expect(mail.text).toContain(`${baseUrl}/chat/${roomId}`);
    const unsubscribe = mail.headerLines.find((h) => h.key === "list-unsubscribe")!.line.match(/<([^>]+)>/)![1];
    expect(mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toMatch(/List-Unsubscribe=One-Click/);

    // Delivered to A's real service worker, the push shows a notification; its click opens the room.
    const a2 = await aContext.newPage();
    const a2Problems = watchConsole(a2);
    await a2.goto(`${baseUrl}/notifications`);
    const shown = await deliverPushToServiceWorker(aContext, a2, second.payload);
    expect(shown).toEqual([{ title: "トレポケ", body: second.message.body, tag: `room-${roomId}`, data: { url: `/chat/${roomId}` } }]);
    const [worker] = aContext.serviceWorkers();
    await worker.evaluate(async () => {
      // The service worker's own scope: its NotificationEvent, as a click on the notification makes it.
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(e: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification }));
    });
    await a2.waitForURL(`${baseUrl}/chat/${roomId}`);

    // Reading the room clears the count everywhere.
    await a2.bringToFront();
    await a2.getByText("まだいらっしゃいますか？").waitFor();
    await until(async () => ((await (await aContext.request.get(`${baseUrl}/api/notifications/count`)).json()) as { unread: number }).unread === 0, "the room read");
    await bellCount(a2).waitFor({ state: "detached" });
    await a2.waitForFunction(() => !/^\(\d+\) /.test(document.title));

    // A moves on inside the site (a client-side navigation: the header's socket stays open). The
    // room no longer counts as open, so B's next message is pushed to A's device again.
    const pushedBefore = pushesOfA().length;
    await a2.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await a2.locator('header a[href="/"]').first().click();
    await a2.waitForURL(`${baseUrl}/`);
    // The URL changes before the room page unmounts (and says chat:leave): wait for the room to be gone.
    await a2.locator("#chat-input").waitFor({ state: "detached" });
    await a2.locator("main h1").first().waitFor();
    expect(await a2.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await b.locator("#chat-input").fill("また後で話しましょう");
    await b.locator("#chat-input").press("Enter");
    await b.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
    await until(() => pushesOfA().slice(pushedBefore).some((p) => p.message.url === `/chat/${roomId}`), "the push after A left the room page", 20_000);

    // The mail's unsubscribe works without a session: the page shows a button, the one-click POST turns mail off.
    const stranger = await newContext(browser);
    const page = await stranger.newPage();
    await page.goto(unsubscribe);
    await page.getByTestId("unsubscribe-button").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const oneClick = await stranger.request.post(unsubscribe, { form: { "List-Unsubscribe": "One-Click" } });
    expect(oneClick.status()).toBe(200);
    const after = (await (await aContext.request.get(`${baseUrl}/api/notifications/settings`)).json()) as { channels: Record<string, { mail: string }> };
    expect(Object.values(after.channels).every((c) => c.mail === "off")).toBe(true);
    const forged = await stranger.request.post(unsubscribe.replace(/token=[^&]+/, "token=Zm9v.YmFy"), { form: { "List-Unsubscribe": "One-Click" } });
    expect(forged.status()).toBe(400);

    expect(aProblems).toEqual([]);
    expect(a2Problems).toEqual([]);
    expect(bProblems).toEqual([]);
    await stranger.close();
    await aContext.close();
    await bContext.close();
  }, 240_000);

  it("on a shared browser, logging out takes this device off the player's pushes; the next player sees push off and takes it over", async () => {
    const context = await newContext(browser);
    const aUser = await signUp(context.request, baseUrl, "アオイ", digits());
    const { vapidPublicKey } = (await (await context.request.get(`${baseUrl}/api/notifications/settings`)).json()) as { vapidPublicKey: string };
    const subscription = await push.subscribe(vapidPublicKey);
    await stubPushManager(context, subscription);
    await context.grantPermissions(["notifications"], { origin: baseUrl });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/profile`);
    const device = page.getByTestId("push-device");
    await page.getByTestId("push-enable").click();
    await device.and(page.locator('[data-state="on"]')).waitFor();
    await page.getByText("プッシュ通知を受け取る端末: 1台").waitFor();
    // The same browser again is the same device.
    await page.reload();
    await device.and(page.locator('[data-state="on"]')).waitFor();
    await page.getByText("プッシュ通知を受け取る端末: 1台").waitFor();

    await page.getByRole("button", { name: "ログアウト" }).click();
    await page.waitForURL(`${baseUrl}/`);
    const again = await newContext(browser);
    const signIn = await again.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: aUser.email, password: "chat-password-1" }, headers: { origin: baseUrl } });
    expect(signIn.ok()).toBe(true);
    expect(((await (await again.request.get(`${baseUrl}/api/notifications/settings`)).json()) as { devices: number }).devices).toBe(0);

    // The next player on this browser: the subscription is there, but not theirs.
    await signUp(context.request, baseUrl, "ミドリ", digits());
    await page.goto(`${baseUrl}/profile`);
    await device.and(page.locator('[data-state="off"]')).waitFor();
    await expect(page.getByText("この端末でプッシュ通知を受け取っています。").count()).resolves.toBe(0);
    await page.getByTestId("push-enable").click();
    await device.and(page.locator('[data-state="on"]')).waitFor();
    await page.getByText("プッシュ通知を受け取る端末: 1台").waitFor();
    expect(problems).toEqual([]);
    await again.close();
    await context.close();
  }, 120_000);

  it("on an iPhone outside the home-screen app the settings show the ホーム画面に追加 guide, not a dead button; the settings save", async () => {
    const context = await newContext(browser, {
      ...PHONE,
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    });
    // Safari in a tab has no Push API.
    await context.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    await signUp(context.request, baseUrl, "イオ", digits());
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/profile`);
    await page.getByTestId("ios-install-guide").waitFor();
    await expect(page.getByTestId("push-enable").count()).resolves.toBe(0);
    await expect(page.getByText("「ホーム画面に追加」を選び、「追加」をタップします。").isVisible()).resolves.toBe(true);

    await page.getByTestId("choice-match-push").selectOption("off");
    await page.getByTestId("choice-message-mail").selectOption("digest");
    await page.getByTestId("quiet-use").check();
    await page.getByLabel("おやすみ時間が終わってから通知する").check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "通知設定を保存" }).click();
    await page.getByText("通知設定を保存しました。").waitFor();
    await page.reload();
    await page.getByTestId("choice-match-push").and(page.locator("select")).waitFor();
    await expect(page.getByTestId("choice-match-push").inputValue()).resolves.toBe("off");
    await expect(page.getByTestId("choice-message-mail").inputValue()).resolves.toBe("digest");
    await expect(page.getByTestId("quiet-use").isChecked()).resolves.toBe(true);

    // Bad input answers a clear error.
    const bad = await context.request.put(`${baseUrl}/api/notifications/settings`, { data: { channels: {}, quiet: null }, headers: { origin: baseUrl } });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "通知設定の内容を確認してください。", code: "invalid_settings" });
    const badSub = await context.request.post(`${baseUrl}/api/push/subscription`, { data: { endpoint: "ftp://x", keys: { p256dh: "a", auth: "b" } }, headers: { origin: baseUrl } });
    expect(badSub.status()).toBe(400);
    const noDevice = await context.request.post(`${baseUrl}/api/push/test`, { headers: { origin: baseUrl } });
    expect(noDevice.status()).toBe(400);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("the site installs: the manifest and its icons are served", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    const manifest = await (await context.request.get(`${baseUrl}${href}`)).json();
    expect(manifest).toMatchObject({ lang: "ja", display: "standalone", start_url: "/", short_name: "トレポケ" });
    for (const icon of manifest.icons as { src: string; sizes: string; purpose: string }[]) {
      const res = await context.request.get(`${baseUrl}${icon.src}`);
      expect(res.headers()["content-type"]).toBe("image/png");
    }
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
    expect((await context.request.get(`${baseUrl}${apple}`)).status()).toBe(200);
    const sw = await context.request.get(`${baseUrl}/sw.js`);
    expect(sw.headers()["content-type"]).toMatch(/javascript/);
    // Chromium's own installability check (what Lighthouse's installable-manifest audit reported).
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
    // A Playwright context is an incognito profile, which Chromium never installs from; nothing else may be missing.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
    await context.close();
  });
});
