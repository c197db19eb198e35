import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, OFFLINE_SOCKET_FAILURE, watchConsole } from "#tests/support/browser.ts";
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

async function send(page: Page, text: string) {
  await page.locator("#chat-input").fill(text);
  await page.locator("#chat-input").press("Enter");
}

async function openLive(page: Page, roomId: string) {
  const res = await page.goto(`${baseUrl}/chat/${roomId}`);
  expect(res?.status()).toBe(200);
  await page.getByText("接続中...").waitFor({ state: "detached" });
}

const texts = (page: Page) => page.locator('[data-testid="chat-messages"] li[data-kind="text"] p').allTextContents();
const pending = (page: Page) => page.locator('[data-pending="true"]');
const outboxKeys = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("torepoke.chat.outbox")));

describe("chat: messages queued while offline", () => {
  it("two tabs of one user queue while offline, one tab closes: every message is sent once", async () => {
    const aContext = await newContext(browser);
    const bContext = await newContext(browser);
    await signUp(aContext.request, baseUrl, "アカネ", digits());
    await signUp(bContext.request, baseUrl, "ベニオ", digits());
    const [give, want] = await twoTradeableCards(aContext.request, baseUrl);
    const roomId = await respond(bContext.request, baseUrl, await postOffer(aContext.request, baseUrl, give, want));

    const a = await aContext.newPage();
    const x = await bContext.newPage();
    const y = await bContext.newPage();
    const [aProblems, xProblems, yProblems] = [a, x, y].map(watchConsole);
    for (const page of [a, x, y]) await openLive(page, roomId);

    await bContext.setOffline(true);
    for (const page of [x, y]) await page.getByText(/オフラインです/).waitFor();
    for (let i = 1; i <= 3; i++) await send(x, `タブXの${i}通目`);
    for (let i = 1; i <= 2; i++) await send(y, `タブYの${i}通目`);
    await expect.poll(() => pending(x).count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => pending(y).count()).toBeGreaterThanOrEqual(2);
    await x.close();
    await bContext.setOffline(false);

    const expected = ["タブXの1通目", "タブXの2通目", "タブXの3通目", "タブYの1通目", "タブYの2通目"];
    await expect.poll(async () => (await texts(a)).sort(), { timeout: 30_000 }).toEqual([...expected].sort());
    await expect.poll(() => pending(y).count(), { timeout: 30_000 }).toBe(0);
    // Exactly once: the stored history has each message one time.
    const history = await bContext.request.get(`${baseUrl}/api/chat/rooms/${roomId}/messages?afterSeq=0`);
    const bodies = ((await history.json()) as { messages: { kind: string; body: string }[] }).messages.filter((m) => m.kind === "text").map((m) => m.body);
    expect(bodies.sort()).toEqual([...expected].sort());
    expect(await outboxKeys(y)).toEqual([]);
    // While tabs X and Y are offline, Chromium itself logs their socket's failed reconnects; that
    // line is expected there. Anything else, or that line from A's online tab, still fails.
    expect(aProblems).toEqual([]);
    expect([...xProblems, ...yProblems].filter((line) => !OFFLINE_SOCKET_FAILURE.test(line))).toEqual([]);
    await aContext.close();
    await bContext.close();
  });

  it("on a shared browser, what one user queued is cleared at log-out and never sent as the next user", async () => {
    const shared = await newContext(browser);
    const other = await newContext(browser);
    const aUser = await signUp(other.request, baseUrl, "アカネ", digits());
    await signUp(shared.request, baseUrl, "ベニオ", digits());
    const [give, want] = await twoTradeableCards(other.request, baseUrl);
    const roomId = await respond(shared.request, baseUrl, await postOffer(other.request, baseUrl, give, want));
    await other.close();

    // B queues two messages while offline, closes the tab, then logs out from the header.
    const bPage = await shared.newPage();
    await openLive(bPage, roomId);
    await shared.setOffline(true);
    await bPage.getByText(/オフラインです/).waitFor();
    await send(bPage, "Bの未送信1");
    await send(bPage, "Bの未送信2");
    await expect.poll(() => pending(bPage).count()).toBe(2);
    expect(await outboxKeys(bPage)).toHaveLength(1);
    await bPage.close();
    await shared.setOffline(false);
    const profile = await shared.newPage();
    const problems = watchConsole(profile);
    await profile.goto(`${baseUrl}/profile`);
    await profile.getByRole("button", { name: "ログアウト" }).click();
    await profile.waitForURL(`${baseUrl}/`);
    await profile.getByRole("link", { name: "ログイン" }).waitFor();
    expect(await outboxKeys(profile)).toEqual([]);

    // A signs in on the same browser and opens the same room: only A's own message goes out.
    const signIn = await shared.request.post(`${baseUrl}/api/auth/sign-in/email`, {
      data: { email: aUser.email, password: "chat-password-1" },
      headers: { origin: baseUrl },
    });
    expect(signIn.ok()).toBe(true);
    await openLive(profile, roomId);
    await send(profile, "Aのメッセージ");
    await expect.poll(() => pending(profile).count()).toBe(0);
    expect(await texts(profile)).toEqual(["Aのメッセージ"]);
    const history = await shared.request.get(`${baseUrl}/api/chat/rooms/${roomId}/messages?afterSeq=0`);
    const bodies = ((await history.json()) as { messages: { kind: string; body: string }[] }).messages.filter((m) => m.kind === "text").map((m) => m.body);
    expect(bodies).toEqual(["Aのメッセージ"]);
    expect(problems).toEqual([]);
    await shared.close();
  });
});
