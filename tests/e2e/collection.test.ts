import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "../support/browser";
import { signUp } from "../support/chat-e2e";

const baseUrl = inject("baseUrl");
const SHOTS = process.env.COLLECTION_SHOTS_DIR ?? "";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const viewports = [
  { name: "phone", options: PHONE },
  { name: "desktop", options: { viewport: { width: 1280, height: 900 } } },
] as const;

describe("マイコレクション in the browser", () => {
  for (const { name, options } of viewports) {
    it(`${name}: open from the header, add cards, ダブり filter, undo, counts kept after reload, progress shown, axe clean`, async () => {
      const context = await newContext(browser, options);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await signUp(context.request, baseUrl, `図鑑${name}`, String(Math.floor(Math.random() * 1e16)).padStart(16, "1"));
      await page.goto(`${baseUrl}/`);
      if (name === "phone") await page.getByRole("button", { name: /メニュー/ }).click();
      await page.getByRole("link", { name: "コレクション", exact: true }).click();
      await page.waitForURL(/\/collection/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("マイコレクション");

      const tiles = page.locator("li[data-card-id]");
      const first = tiles.nth(0);
      const second = tiles.nth(1);
      const addFirst = first.getByRole("button", { name: /を1枚追加$/ });
      await addFirst.click();
      await addFirst.click();
      await second.getByRole("button", { name: /を1枚追加$/ }).click();
      await expect.poll(() => first.getAttribute("data-count")).toBe("2");
      await expect.poll(() => page.locator("[data-save-state]").getAttribute("data-save-state")).toBe("idle");

      // 元に戻す takes back the last change (the second card's tap).
      await page.getByRole("button", { name: "元に戻す" }).click();
      await expect.poll(() => second.getAttribute("data-count")).toBe("0");
      await expect.poll(() => page.locator("[data-save-state]").getAttribute("data-save-state")).toBe("idle");

      // Tap the count and type a number.
      await second.getByRole("button", { name: /の所持枚数/ }).click();
      await second.getByRole("textbox").fill("3");
      await second.getByRole("button", { name: "決定" }).click();
      await expect.poll(() => second.getAttribute("data-count")).toBe("3");
      await expect.poll(() => page.locator("[data-save-state]").getAttribute("data-save-state")).toBe("idle");

      await page.reload();
      await expect.poll(() => page.locator("li[data-card-id]").nth(0).getAttribute("data-count")).toBe("2");
      await expect.poll(() => page.locator("li[data-card-id]").nth(1).getAttribute("data-count")).toBe("3");
      await expect.poll(() => page.getByRole("heading", { name: "図鑑の埋まり具合" }).isVisible()).toBe(true);
      await expect.poll(() => page.locator("#collection-progress-heading + div").textContent()).toMatch(/2\/\d+（\d+%）/);

      await page.locator("#collection-owned").selectOption("duplicate");
      await page.waitForURL(/owned=duplicate/);
      await expect.poll(() => page.locator("li[data-card-id]").count()).toBe(2);

      expect(await seriousA11yViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/collection-${name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
