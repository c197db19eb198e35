import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");
const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const bellCount = (page: Page) => page.getByTestId("notification-count").locator('[aria-hidden="true"]');

/** Waits until the page's title says at least `n` unread notifications, without reloading it. */
async function titleCountAtLeast(page: Page, n: number): Promise<number> {
  const handle = await page.waitForFunction((min) => {
    const m = /^\((\d+)\) /.exec(document.title);
    return m && Number(m[1]) >= min ? Number(m[1]) : null;
  }, n);
  return (await handle.jsonValue()) as number;
}

describe("notifications in the browser", () => {
  it("B answers A's offer and writes while A is elsewhere: A's bell and title count rise live; reading the room clears them", async () => {
    const aContext: BrowserContext = await newContext(browser, PHONE);
    const bContext: BrowserContext = await newContext(browser);
    await signUp(aContext.request, baseUrl, "アオイ", digits());
    await signUp(bContext.request, baseUrl, "ベル", digits());
    const [give, want] = await twoTradeableCards(aContext.request, baseUrl);
    const offerId = await postOffer(aContext.request, baseUrl, give, want);

    // A is on the board, on a phone: the bell sits in the header with the menu closed.
    const a = await aContext.newPage();
    const aProblems = watchConsole(a);
    await a.goto(`${baseUrl}/trades`);
    await expect(a.getByTestId("notification-bell").isVisible()).resolves.toBe(true);
    await expect(a.locator("#site-menu").isVisible()).resolves.toBe(false);

    const roomId = await respond(bContext.request, baseUrl, offerId);
    const b = await bContext.newPage();
    const bProblems = watchConsole(b);
    await b.goto(`${baseUrl}/chat/${roomId}`);
    await b.getByText("接続中...").waitFor({ state: "detached" });
    await b.locator("#chat-input").fill("はじめまして！交換お願いします");
    await b.locator("#chat-input").press("Enter");
    await b.locator('[data-pending="true"]').first().waitFor({ state: "detached" });

    // The response and the message: two notifications, pushed to A's page without a reload.
    await a.waitForFunction(() => document.title.startsWith("(2) "));
    await expect(bellCount(a).textContent()).resolves.toBe("2");
    await expect(a.getByTestId("menu-notification-count").textContent()).resolves.toBe("2");

    // A second message folds into the room's one notification.
    await b.locator("#chat-input").fill("よろしくお願いします");
    await b.locator("#chat-input").press("Enter");
    await b.locator('[data-pending="true"]').first().waitFor({ state: "detached" });

    await a.getByTestId("notification-bell").click();
    await a.waitForURL(`${baseUrl}/notifications`);
    const items = a.getByTestId("notifications").locator("li");
    await a.getByText("ベルさんから新しいメッセージが2件あります").waitFor();
    await expect(items.count()).resolves.toBe(2);
    await expect(a.getByRole("heading", { name: "今日" }).isVisible()).resolves.toBe(true);
    expect(await seriousA11yViolations(a)).toEqual([]);

    // The message notification opens the room; reading it clears the room's notifications
    // (the message and the response that opened the room), in the bell and the title.
    await a.getByRole("link", { name: "ベルさんから新しいメッセージが2件あります" }).click();
    await a.waitForURL(`${baseUrl}/chat/${roomId}`);
    await bellCount(a).waitFor({ state: "detached" });
    await a.waitForFunction(() => !/^\(\d+\) /.test(document.title));
    await a.goto(`${baseUrl}/notifications`);
    await expect(a.locator('[data-read="false"]').count()).resolves.toBe(0);
    await expect(a.locator('[data-read="true"]').count()).resolves.toBe(2);

    // While A reads the inbox, B writes again: the count follows live (the list shows it on the
    // next load: a message sent before this page's socket connected reaches it only through the
    // count asked on connect); すべて既読 clears both.
    await b.locator("#chat-input").fill("フレンド申請しますね");
    await b.locator("#chat-input").press("Enter");
    await a.waitForFunction(() => document.title.startsWith("(1) "));
    await a.reload();
    await a.getByText("ベルさんから新しいメッセージが1件あります").waitFor();
    await a.getByRole("button", { name: "すべて既読" }).click();
    await a.getByRole("button", { name: "すべて既読" }).waitFor({ state: "detached" });
    await bellCount(a).waitFor({ state: "detached" });
    await expect(a.locator('[data-read="false"]').count()).resolves.toBe(0);

    expect(aProblems).toEqual([]);
    expect(bProblems).toEqual([]);
    await aContext.close();
    await bContext.close();
  }, 180_000);

  it("a ほしいカード hit, a マッチ and a 交渉 reach open tabs live at 390 and 1280 px: bell and title rise with no navigation", async () => {
    const cContext = await newContext(browser, PHONE);
    const dContext = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    await signUp(cContext.request, baseUrl, "チサト", digits());
    await signUp(dContext.request, baseUrl, "ダン", digits());
    const [give, want] = await twoTradeableCards(dContext.request, baseUrl);
    const wanted = await cContext.request.post(`${baseUrl}/wanted-cards`, { form: { cardId: give, intent: "add" }, headers: { origin: baseUrl }, maxRedirects: 0 });
    expect(wanted.status()).toBeLessThan(400);

    // Both players sit on a page and never navigate from here on.
    const c = await cContext.newPage();
    const d = await dContext.newPage();
    const cProblems = watchConsole(c);
    const dProblems = watchConsole(d);
    await c.goto(`${baseUrl}/trades`);
    await d.goto(`${baseUrl}/trades`);
    const loads = { c: 0, d: 0 };
    c.on("load", () => loads.c++);
    d.on("load", () => loads.d++);
    await expect(bellCount(c).count()).resolves.toBe(0);
    await expect(bellCount(d).count()).resolves.toBe(0);

    // D offers the card on C's list: C's phone shows it at once.
    const dOffer = await postOffer(dContext.request, baseUrl, give, want);
    const cAfterWant = await titleCountAtLeast(c, 1);
    await expect.poll(() => bellCount(c).textContent()).toBe(String(cAfterWant));
    await expect.poll(() => c.getByTestId("menu-notification-count").textContent()).toBe(String(cAfterWant));

    // C posts the mirror offer: D (matched, on the desktop) hears of it live.
    const cOffer = await postOffer(cContext.request, baseUrl, want, give);
    const dAfterMatch = await titleCountAtLeast(d, 1);
    await expect.poll(() => bellCount(d).textContent()).toBe(String(dAfterMatch));

    // D presses 交渉する on C's offer: C's count rises again.
    await respond(dContext.request, baseUrl, cOffer);
    await titleCountAtLeast(c, cAfterWant + 1);

    expect(loads).toEqual({ c: 0, d: 0 });
    await c.screenshot({ path: "/tmp/notify-live-390.png" });
    await d.screenshot({ path: "/tmp/notify-live-1280.png" });
    expect(await seriousA11yViolations(c)).toEqual([]);
    expect(await seriousA11yViolations(d)).toEqual([]);
    expect(dOffer).not.toBe(cOffer);
    expect(cProblems).toEqual([]);
    expect(dProblems).toEqual([]);
    await cContext.close();
    await dContext.close();
  }, 180_000);

  it("the bell is accessible on a wide screen; signed out there is no bell and /notifications asks to log in", async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    await signUp(context.request, baseUrl, "ワイド", digits());
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/notifications`);
    await expect(page.getByTestId("notification-bell").isVisible()).resolves.toBe(true);
    await expect(page.getByText("お知らせはまだありません。").isVisible()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();

    const anonymous = await newContext(browser);
    const res = await anonymous.request.get(`${baseUrl}/notifications`, { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toContain("/login?redirectTo=");
    const api = await anonymous.request.get(`${baseUrl}/api/notifications/count`);
    // Signed out, the count is 0 (never 401: the bell may ask once more while a log-out lands).
    expect(api.status()).toBe(200);
    expect(await api.json()).toEqual({ unread: 0 });
    const anonPage = await anonymous.newPage();
    await anonPage.goto(`${baseUrl}/`);
    await expect(anonPage.getByTestId("notification-bell").count()).resolves.toBe(0);
    await anonymous.close();
  }, 120_000);

  it("C puts a card on the ほしいカード list from its page; an offer giving it notifies C once", async () => {
    const cContext = await newContext(browser, PHONE);
    const dContext = await newContext(browser);
    await signUp(cContext.request, baseUrl, "チハヤ", digits());
    await signUp(dContext.request, baseUrl, "ダイチ", digits());
    const [give, want] = await twoTradeableCards(dContext.request, baseUrl);

    const c = await cContext.newPage();
    const problems = watchConsole(c);
    await c.goto(`${baseUrl}/cards/${encodeURIComponent(give)}`);
    await c.getByRole("button", { name: "ほしいカードに追加" }).click();
    await c.getByRole("button", { name: "ほしいカードから外す" }).waitFor();
    expect(await seriousA11yViolations(c)).toEqual([]);

    const offerId = await postOffer(dContext.request, baseUrl, give, want);
    await c.goto(`${baseUrl}/notifications`);
    const wantNotices = c.getByTestId("notifications").locator("li").filter({ hasText: "ダイチさんが出品しました" });
    await expect(wantNotices.count()).resolves.toBe(1);
    await expect(wantNotices.getByRole("link").getAttribute("href")).resolves.toBe(`/trades/${offerId}`);
    await expect(c.getByTestId("wanted-cards").locator("li").count()).resolves.toBe(1);
    await c.waitForFunction(() => document.title.startsWith("(1) "));
    expect(await seriousA11yViolations(c)).toEqual([]);
    expect(problems).toEqual([]);
    await cContext.close();
    await dContext.close();
  }, 120_000);
});
