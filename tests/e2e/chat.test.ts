import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards, type Participant } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Side = { context: BrowserContext; page: Page; user: Participant; problems: string[] };
const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

/** A (offer owner) and B (who pressed 交渉する), each in their own browser context, both on the room page. */
async function openRoom(options: { phoneForB?: boolean } = {}): Promise<{ roomId: string; offerId: string; a: Side; b: Side }> {
  const aContext = await newContext(browser);
  const bContext = await newContext(browser, options.phoneForB ? PHONE : {});
  const aUser = await signUp(aContext.request, baseUrl, "アカネ", digits());
  const bUser = await signUp(bContext.request, baseUrl, "ベニオ", digits());
  const [give, want] = await twoTradeableCards(aContext.request, baseUrl);
  const offerId = await postOffer(aContext.request, baseUrl, give, want);
  const roomId = await respond(bContext.request, baseUrl, offerId);
  const sides = await Promise.all(
    [
      [aContext, aUser],
      [bContext, bUser],
    ].map(async ([context, user]) => {
      const page = await (context as BrowserContext).newPage();
      const problems = watchConsole(page);
      const res = await page.goto(`${baseUrl}/chat/${roomId}`);
      expect(res?.status()).toBe(200);
      // Live once the socket has joined the room.
      await page.getByText("接続中...").waitFor({ state: "detached" });
      return { context: context as BrowserContext, page, user: user as Participant, problems };
    }),
  );
  return { roomId, offerId, a: sides[0], b: sides[1] };
}

const texts = (page: Page) => page.locator('[data-testid="chat-messages"] li[data-kind="text"] p').allTextContents();

async function send(page: Page, text: string) {
  await page.locator("#chat-input").fill(text);
  await page.locator("#chat-input").press("Enter");
}

/** Waits until the sender's own message is acknowledged (no pending bubble left). */
async function acked(page: Page) {
  await page.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
}

describe("trade chat in the browser", () => {
  it("two users chat in real time; links are safe; the page is accessible", async () => {
    const { a, b } = await openRoom({ phoneForB: true });
    await expect(a.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("ベニオさんとのチャット");
    await send(a.page, "こんにちは！ https://example.com/deck <b>太字</b>");
    await b.page.locator('[data-testid="chat-messages"] li[data-kind="text"]').first().waitFor();
    expect(await texts(b.page)).toEqual(["こんにちは！ https://example.com/deck <b>太字</b>"]);
    const link = b.page.locator('[data-testid="chat-messages"] a');
    expect(await link.getAttribute("href")).toBe("https://example.com/deck");
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    // No HTML is rendered from a message.
    expect(await b.page.locator('[data-testid="chat-messages"] b').count()).toBe(0);
    // Timestamps are Japan time.
    expect(await b.page.locator('[data-testid="chat-messages"] time').first().textContent()).toMatch(/^\d{1,2}\/\d{1,2} \d{2}:\d{2}$/);

    await send(b.page, "よろしくお願いします");
    await a.page.getByText("よろしくお願いします").waitFor();
    expect(await texts(a.page)).toEqual(["こんにちは！ https://example.com/deck <b>太字</b>", "よろしくお願いします"]);
    // A reload renders the same history on the server, once each.
    await a.page.reload();
    expect(await texts(a.page)).toEqual(["こんにちは！ https://example.com/deck <b>太字</b>", "よろしくお願いします"]);

    expect(await seriousA11yViolations(a.page)).toEqual([]);
    expect(await seriousA11yViolations(b.page)).toEqual([]);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("B offline while A sends 5: back online, B sees all 5 once, in order", async () => {
    const { a, b } = await openRoom();
    await send(a.page, "はじめまして");
    await b.page.getByText("はじめまして").waitFor();
    await b.context.setOffline(true);
    // B's page notices at once: the network is gone, not just quiet.
    await b.page.getByText(/オフラインです/).waitFor();
    for (let i = 1; i <= 5; i++) {
      await send(a.page, `オフライン中のメッセージ ${i}`);
      await acked(a.page);
    }
    await b.context.setOffline(false);
    await b.page.getByText("オフライン中のメッセージ 5").waitFor();
    const seen = await texts(b.page);
    expect(seen).toEqual(["はじめまして", ...[1, 2, 3, 4, 5].map((i) => `オフライン中のメッセージ ${i}`)]);
    const seqs = await b.page.locator('[data-testid="chat-messages"] li[data-seq]').evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-seq"))));
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
    await a.context.close();
    await b.context.close();
  });

  it("Enter sends, Shift+Enter is a new line, and Enter during IME composition does not send", async () => {
    const { a, b } = await openRoom();
    const input = a.page.locator("#chat-input");
    await input.fill("こうかん");
    // The Enter that confirms an IME conversion: isComposing on the event…
    await input.dispatchEvent("keydown", { key: "Enter", code: "Enter", isComposing: true, bubbles: true, cancelable: true });
    // …or keyCode 229 (browsers that report composition that way).
    await input.evaluate((el) => {
      const event = new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, cancelable: true });
      Object.defineProperty(event, "keyCode", { get: () => 229 });
      el.dispatchEvent(event);
    });
    expect(await input.inputValue()).toBe("こうかん");
    expect(await a.page.locator('[data-testid="chat-messages"] li').count()).toBe(0);
    await input.press("Shift+Enter");
    await input.pressSequentially("しませんか");
    expect(await input.inputValue()).toBe("こうかん\nしませんか");
    await input.press("Enter");
    await b.page.locator('[data-testid="chat-messages"] li[data-kind="text"]').first().waitFor();
    expect(await texts(b.page)).toEqual(["こうかん\nしませんか"]);
    expect(await input.inputValue()).toBe("");
    await a.context.close();
    await b.context.close();
  });

  it("the trade steps run to 成立, revealing friend IDs only after both agree", async () => {
    const { a, b, offerId } = await openRoom();
    const button = (page: Page, name: string) => page.getByRole("button", { name: new RegExp(`^${name}`) });
    expect(await b.page.getByTestId("partner-friend-id").count()).toBe(0);
    await button(a.page, "条件合意").click();
    await b.page.getByText("アカネさんが条件に合意しました。").waitFor();
    expect(await b.page.getByTestId("partner-friend-id").count()).toBe(0);
    await button(b.page, "条件合意").click();
    const grouped = (id: string) => id.replace(/(\d{4})(?=\d)/g, "$1-");
    await b.page.getByTestId("partner-friend-id").waitFor();
    expect(await b.page.getByTestId("partner-friend-id").textContent()).toBe(grouped(a.user.friendId));
    await a.page.getByTestId("partner-friend-id").waitFor();
    expect(await a.page.getByTestId("partner-friend-id").textContent()).toBe(grouped(b.user.friendId));
    expect(await a.page.getByTestId("offer-status").textContent()).toBe("取引中");

    await button(b.page, "フレンド申請済み").click();
    await button(a.page, "ゲーム内でトレード申請済み").and(a.page.locator(":enabled")).click();
    await button(a.page, "取引完了").and(a.page.locator(":enabled")).click();
    await a.page.getByText("取引完了（相手の操作待ち）").waitFor();
    await button(b.page, "取引完了").and(b.page.locator(":enabled")).click();
    for (const side of [a, b]) {
      await side.page.getByText("トレードが成立しました。", { exact: true }).waitFor();
      expect(await side.page.getByTestId("offer-status").textContent()).toBe("成立");
    }
    const offer = await a.context.request.get(`${baseUrl}/api/trades/${offerId}`);
    expect(((await offer.json()) as { offer: { status: string } }).offer.status).toBe("completed");
    // Each user's completed-trade count went up: the partner sees it on the room page.
    await a.page.reload();
    await a.page.getByText("成立 1件").waitFor();
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("unread counts show live in the header badge and the /profile rooms list, and clear once read", async () => {
    const { roomId, a, b } = await openRoom();
    await b.page.goto(`${baseUrl}/profile`);
    const rooms = b.page.getByTestId("chat-rooms");
    await rooms.waitFor();
    expect(await rooms.locator("li").count()).toBe(1);
    expect(await rooms.textContent()).toContain("アカネさん");
    // Wait for the badge's own socket before A writes.
    await b.page.waitForFunction(() => document.readyState === "complete");
    await send(a.page, "プロフ画面にも届く？");
    await acked(a.page);
    await send(a.page, "2通目");
    await acked(a.page);
    await b.page.getByTestId("chat-unread-badge").waitFor();
    await expect.poll(() => b.page.getByTestId("chat-unread-badge").textContent()).toContain("2");
    await expect.poll(() => b.page.getByTestId("room-unread").textContent()).toBe("未読 2件");
    expect(await rooms.textContent()).toContain("2通目");
    // Opening the room (live, so it reports what was read) clears both.
    await b.page.goto(`${baseUrl}/chat/${roomId}`);
    await b.page.getByText("接続中...").waitFor({ state: "detached" });
    await b.page.getByText("2通目").waitFor();
    await expect.poll(() => b.page.getByTestId("chat-unread-badge").count()).toBe(0);
    await expect
      .poll(async () => {
        await b.page.goto(`${baseUrl}/profile`);
        return b.page.getByTestId("room-unread").count();
      })
      .toBe(0);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("only the two participants get the room: others get 404 on the page and the API; signed-out users go to log in", async () => {
    const { roomId, a, b } = await openRoom();
    const strangerContext = await newContext(browser);
    await signUp(strangerContext.request, baseUrl, "サトシ", digits());
    const page = await strangerContext.newPage();
    const res = await page.goto(`${baseUrl}/chat/${roomId}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("ページが見つかりません");
    const api = await strangerContext.request.get(`${baseUrl}/api/chat/rooms/${roomId}/messages`);
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ error: "チャットルームが見つかりません", code: "not_found" });
    const mine = await a.context.request.get(`${baseUrl}/api/chat/rooms/${roomId}/messages?afterSeq=0`);
    expect(mine.status()).toBe(200);

    const anonymous = await newContext(browser);
    const anonPage = await anonymous.newPage();
    await anonPage.goto(`${baseUrl}/chat/${roomId}`);
    expect(new URL(anonPage.url()).pathname).toBe("/login");
    expect(new URL(anonPage.url()).searchParams.get("redirectTo")).toBe(`/chat/${roomId}`);
    for (const c of [strangerContext, anonymous, a.context, b.context]) await c.close();
  });
});
