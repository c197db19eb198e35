import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "../support/browser";
import { postOffer, signUp, twoTradeableCards } from "../support/chat-e2e";

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
