import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");
const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");
const DESKTOP = { viewport: { width: 1280, height: 900 } };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Player = { context: BrowserContext; page: Page; problems: string[] };

/**
 * Owner A on a 390×844 phone posts an offer, partner B on a 1280×900 desktop presses 交渉する;
 * both open the room and write `messages` messages in turn.
 */
async function roomOfTwo(messages: number) {
  const players: Player[] = [];
  for (const [name, device] of [
    ["アオイ", PHONE],
    ["ミドリ", DESKTOP],
  ] as const) {
    const context = await newContext(browser, device);
    await signUp(context.request, baseUrl, name, digits());
    const page = await context.newPage();
    players.push({ context, page, problems: watchConsole(page) });
  }
  const [a, b] = players;
  const [give, want] = await twoTradeableCards(a.context.request, baseUrl);
  const offerId = await postOffer(a.context.request, baseUrl, give, want);
  const roomId = await respond(b.context.request, baseUrl, offerId);
  for (const player of players) {
    await player.page.goto(`${baseUrl}/chat/${roomId}`);
    await player.page.getByText("接続中...").waitFor({ state: "detached" });
  }
  for (let i = 1; i <= messages; i++) {
    const sender = i % 2 ? a : b;
    await sender.page.locator("#chat-input").fill(`メッセージ ${i}`);
    await sender.page.locator("#chat-input").press("Enter");
    await sender.page.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
  }
  return { a, b, offerId, roomId };
}

/** Whether the element is inside the viewport without scrolling. */
async function onFirstScreen(page: Page, selector: string, height: number): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe("a trade room at every width", () => {
  it("opens with the newest messages and the input on the first screen, for both players, from a phone to a wide desktop", async () => {
    const { a, b, roomId } = await roomOfTwo(12);
    const sizes = [
      { width: 390, height: 844 },
      { width: 768, height: 1024 },
      { width: 1024, height: 768 },
      { width: 1280, height: 900 },
      { width: 1440, height: 800 },
    ];
    for (const player of [a, b]) {
      for (const viewport of sizes) {
        // A fresh visit, as from a notification: nothing scrolled yet.
        const page = await player.context.newPage();
        const problems = watchConsole(page);
        await page.setViewportSize(viewport);
        await page.goto(`${baseUrl}/chat/${roomId}`);
        await page.getByText("接続中...").waitFor({ state: "detached" });
        const where = `${viewport.width}×${viewport.height}`;
        expect(await page.evaluate(() => window.scrollY), where).toBe(0);
        expect(await onFirstScreen(page, "#chat-input", viewport.height), `input at ${where}`).toBe(true);
        expect(await onFirstScreen(page, 'form:has(#chat-input) button[type="submit"]', viewport.height), `送信 at ${where}`).toBe(true);
        const newest = page.locator('[data-testid="chat-messages"] li[data-kind="text"]').last();
        expect(await newest.textContent()).toContain("メッセージ 12");
        const newestBox = (await newest.boundingBox())!;
        const logBox = (await page.getByRole("log").boundingBox())!;
        // The newest message is in the visible part of the message list, and the list is on screen.
        expect(newestBox.y, `newest message at ${where}`).toBeGreaterThanOrEqual(logBox.y);
        expect(newestBox.y + newestBox.height, `newest message at ${where}`).toBeLessThanOrEqual(logBox.y + logBox.height + 1);
        expect(logBox.y + logBox.height, `message list at ${where}`).toBeLessThanOrEqual(viewport.height);
        if (viewport.width >= 768) {
          // From md up the trade and its steps stay open beside the messages, not above them.
          expect(await page.getByRole("button", { name: /^条件合意/ }).isVisible()).toBe(true);
          const panelBox = (await page.locator("#chat-trade-panel").boundingBox())!;
          expect(panelBox.x, `panel beside the messages at ${where}`).toBeGreaterThanOrEqual(logBox.x + logBox.width);
        }
        if (viewport.width === 390 || viewport.width === 1280) expect(await seriousA11yViolations(page), where).toEqual([]);
        expect(problems, where).toEqual([]);
        await page.close();
      }
    }
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  }, 240_000);
});

describe("a room whose partner deleted the account", () => {
  it("says the partner left and takes nothing; the offer page offers no 通報する, ブロック or 最終アクティブ", async () => {
    const { a, b, roomId, offerId } = await roomOfTwo(2);
    // A (the owner, on the phone) deletes the account.
    const deleted = await a.context.request.post(`${baseUrl}/profile/account`, {
      form: { intent: "deleteAccount", password: "chat-password-1", confirm: "on" },
      headers: { origin: baseUrl },
      maxRedirects: 0,
    });
    expect(deleted.status()).toBe(302);
    expect(deleted.headers().location).toBe("/login?deleted=1");
    await a.context.close();

    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      const where = `${viewport.width}×${viewport.height}`;
      const page = await b.context.newPage();
      const problems = watchConsole(page);
      await page.setViewportSize(viewport);
      await page.goto(`${baseUrl}/chat/${roomId}`);
      await page.getByText("接続中...").waitFor({ state: "detached" });
      expect(await page.getByRole("heading", { level: 1 }).textContent(), where).toBe("退会したユーザーとのチャット");
      expect(await page.title(), where).toMatch(/^退会したユーザーとのチャット/);
      expect(await page.getByText("退会したユーザーさん").count(), where).toBe(0);
      // Nothing to type into or press: no input, no quick replies, no ブロック, no step.
      expect(await page.getByTestId("room-partner-left").textContent(), where).toBe(
        "相手は退会しました。このチャットは閲覧のみで、メッセージの送信や取引の手続きはできません。",
      );
      expect(await page.locator("#chat-input").count(), where).toBe(0);
      expect(await page.getByTestId("quick-replies").count(), where).toBe(0);
      expect(await page.getByRole("button", { name: "ブロック", exact: true }).count(), where).toBe(0);
      expect(await page.getByRole("button", { name: "まだいますか？" }).count(), where).toBe(0);
      if (viewport.width < 768) await page.getByTestId("trade-panel-toggle").click();
      for (const step of await page.locator("#chat-trade-panel ol button").all()) expect(await step.isDisabled(), where).toBe(true);
      // The history stays readable.
      await page.getByText("メッセージ 2").waitFor();
      expect(await seriousA11yViolations(page), where).toEqual([]);

      await page.goto(`${baseUrl}/trades/${offerId}`);
      expect(await page.getByRole("heading", { level: 1 }).textContent(), where).toBe("退会したユーザーのトレード募集");
      expect(await page.getByText("通報する").count(), where).toBe(0);
      expect(await page.getByText("ブロック", { exact: true }).count(), where).toBe(0);
      expect(await page.getByText(/最終アクティブ/).count(), where).toBe(0);
      expect(await seriousA11yViolations(page), where).toEqual([]);
      expect(problems, where).toEqual([]);
      await page.close();
    }
    expect(b.problems).toEqual([]);
    await b.context.close();
  }, 180_000);
});
