import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  // At least one offer on the board.
  const owner = await newContext(browser);
  await signUp(owner.request, baseUrl, "ボード", "9999000011112222");
  const [give, want] = await twoTradeableCards(owner.request, baseUrl);
  await postOffer(owner.request, baseUrl, give, want);
  await owner.close();
});
afterAll(async () => {
  await browser?.close();
});

describe("the trade board on a phone", () => {
  it("shows offers first, with the filters behind a button and the active ones as chips", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/trades?rarity=${encodeURIComponent("◆◆◆◆")}`);
    await page.waitForFunction(() => document.readyState === "complete");
    const toggle = page.locator('button[aria-controls="board-filter-panel"]');
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    // The card search of the filters is folded away; the first offer is on the first screen.
    expect(await page.getByRole("combobox", { name: "譲っているカード" }).isVisible()).toBe(false);
    const firstOffer = page.locator('section[aria-labelledby="offers-heading"] li').first();
    const box = await firstOffer.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeLessThan(844);
    // The active filter stays in sight as a chip that removes it.
    const chip = page.getByTestId("filter-chips").getByText("レアリティ: ◆◆◆◆");
    expect(await chip.isVisible()).toBe(true);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByRole("combobox", { name: "譲っているカード" }).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "レアリティ: ◆◆◆◆ の条件を外す" }).click();
    await page.waitForURL(`${baseUrl}/trades`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps the filters open on a desktop screen, without the button", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/trades`);
    expect(await page.getByRole("combobox", { name: "譲っているカード" }).isVisible()).toBe(true);
    expect(await page.locator('button[aria-controls="board-filter-panel"]').isVisible()).toBe(false);
    await context.close();
  });
});

describe("after a trade room ends", () => {
  const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

  async function room() {
    const a = await newContext(browser);
    const b = await newContext(browser);
    await signUp(a.request, baseUrl, "アカネ", digits());
    await signUp(b.request, baseUrl, "ベニオ", digits());
    const [give, want] = await twoTradeableCards(a.request, baseUrl);
    const offerId = await postOffer(a.request, baseUrl, give, want);
    const roomId = await respond(b.request, baseUrl, offerId);
    const pages = await Promise.all(
      [a, b].map(async (context) => {
        const page = await context.newPage();
        await page.goto(`${baseUrl}/chat/${roomId}`);
        await page.getByText("接続中...").waitFor({ state: "detached" });
        return page;
      }),
    );
    return { a, b, aPage: pages[0], bPage: pages[1], offerId, give, want };
  }

  it("a cancelled room says how to start again, to each side", async () => {
    const { a, b, aPage, bPage, offerId } = await room();
    aPage.once("dialog", (dialog) => void dialog.accept());
    await aPage.getByRole("button", { name: "キャンセル" }).click();
    await bPage.getByText("このトレードはキャンセルされました。").waitFor();
    await bPage.getByText("もう一度交渉するには、募集ページで「交渉する」を押してください。このチャットで再開します。").waitFor();
    expect(await bPage.getByRole("link", { name: "募集ページへ" }).getAttribute("href")).toBe(`/trades/${offerId}`);
    await aPage.getByText("募集は受付中です。ベニオさんがもう一度「交渉する」を押すと、このチャットで再開できます。").waitFor();
    // And it does: 交渉する again reopens this room.
    await bPage.getByRole("link", { name: "募集ページへ" }).click();
    await bPage.getByRole("button", { name: "交渉する" }).click();
    await bPage.waitForURL((url) => url.pathname.startsWith("/chat/"));
    await bPage.getByRole("button", { name: /^条件合意/ }).and(bPage.locator(":enabled")).waitFor();
    await a.close();
    await b.close();
  });

  it("after completion, each side is offered to close their own offer the trade made pointless", async () => {
    const { a, b, aPage, bPage, give, want } = await room();
    // B's own offer is the mirror image: it gives what A wants and wants what A gives.
    const mirrorId = await postOffer(b.request, baseUrl, want, give);
    const button = (page: typeof aPage, name: string) => page.getByRole("button", { name: new RegExp(`^${name}`) }).and(page.locator(":enabled"));
    await button(aPage, "条件合意").click();
    await button(bPage, "条件合意").click();
    await button(bPage, "フレンド申請済み").click();
    await button(aPage, "ゲーム内でトレード申請済み").click();
    await button(aPage, "取引完了").click();
    await button(bPage, "取引完了").click();
    await bPage.getByText("トレードが成立しました。", { exact: true }).waitFor();
    const mirror = bPage.getByTestId("mirror-offers");
    await mirror.waitFor();
    expect(await mirror.textContent()).toContain("このトレードで必要なくなった募集があります");
    await mirror.getByRole("button", { name: "この募集を締め切る" }).click();
    await mirror.getByText("締め切りました").waitFor();
    const res = await b.request.get(`${baseUrl}/api/trades/${mirrorId}`);
    expect(((await res.json()) as { offer: { status: string } }).offer.status).toBe("closed");
    // A had no such offer: nothing offered.
    expect(await aPage.getByTestId("mirror-offers").count()).toBe(0);
    await a.close();
    await b.close();
  });
});
