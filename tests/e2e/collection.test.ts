import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, OFFLINE_SOCKET_FAILURE, openPhoneMenu, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signUp } from "#tests/support/chat-e2e.ts";

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
      if (name === "phone") await openPhoneMenu(page);
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

/** The page's save state (idle once everything queued is saved). */
const saveState = (page: Page) => page.locator("[data-save-state]").getAttribute("data-save-state");
const ownedTiles = (page: Page) => page.locator('li[data-card-id]:not([data-count="0"])').count();

describe("マイコレクション keeps every tap", () => {
  it("on a phone: 30 taps survive a reload, 5 taps made offline are sent when the connection returns, undo works, and a CSV export imported into another account gives the same counts", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const errors = watchConsole(page);
    await signUp(context.request, baseUrl, "図鑑オフライン", String(Math.floor(Math.random() * 1e16)).padStart(16, "2"));
    await page.goto(`${baseUrl}/collection`);
    const tiles = page.locator("li[data-card-id]");
    await expect.poll(() => tiles.count()).toBeGreaterThanOrEqual(36);

    for (let i = 0; i < 30; i++) await tiles.nth(i).getByRole("button", { name: /を1枚追加$/ }).click();
    await expect.poll(() => saveState(page)).toBe("idle");
    await page.reload();
    await expect.poll(() => ownedTiles(page)).toBe(30);

    // Offline (DevTools' network emulation): the taps are queued on the device and the page says so.
    await context.setOffline(true);
    for (let i = 30; i < 35; i++) await tiles.nth(i).getByRole("button", { name: /を1枚追加$/ }).click();
    await expect.poll(() => saveState(page)).toBe("offline");
    await expect.poll(() => page.getByText(/オフラインです。変更はこの端末に保存され/).isVisible()).toBe(true);
    await context.setOffline(false);
    await expect.poll(() => saveState(page), { timeout: 30_000 }).toBe("idle");
    await page.reload();
    await expect.poll(() => ownedTiles(page)).toBe(35);

    // 元に戻す takes back the last tap, and the reload agrees.
    await tiles.nth(35).getByRole("button", { name: /を1枚追加$/ }).click();
    await expect.poll(() => tiles.nth(35).getAttribute("data-count")).toBe("1");
    await expect.poll(() => saveState(page)).toBe("idle");
    await page.getByRole("button", { name: "元に戻す" }).click();
    await expect.poll(() => tiles.nth(35).getAttribute("data-count")).toBe("0");
    await expect.poll(() => saveState(page)).toBe("idle");
    await page.reload();
    await expect.poll(() => ownedTiles(page)).toBe(35);

    // CSV export from this account…
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSVを書き出す" }).click()]);
    const exported = readFileSync((await download.path())!);
    expect(exported.toString("utf8").split("\n").filter((line) => /\S/.test(line)).length).toBe(36);

    // …imported into another account through the page gives the same counts.
    const other = await newContext(browser, PHONE);
    const otherPage = await other.newPage();
    const otherErrors = watchConsole(otherPage);
    await signUp(other.request, baseUrl, "図鑑インポート", String(Math.floor(Math.random() * 1e16)).padStart(16, "3"));
    await otherPage.goto(`${baseUrl}/collection`);
    await otherPage.locator("#collection-csv").setInputFiles({ name: "collection.csv", mimeType: "text/csv", buffer: exported });
    await otherPage.getByRole("button", { name: "CSVを読み込む" }).click();
    await expect.poll(() => otherPage.getByText("35件の枚数を読み込みました").isVisible()).toBe(true);
    await otherPage.reload();
    await expect.poll(() => ownedTiles(otherPage)).toBe(35);
    const again = await other.request.get(`${baseUrl}/api/collection/export.csv`);
    expect(Buffer.from(await again.body()).equals(exported)).toBe(true);

    // Only the socket's failed reconnect while offline, which Chromium itself logs.
    expect(errors.filter((line) => !OFFLINE_SOCKET_FAILURE.test(line))).toEqual([]);
    expect(otherErrors).toEqual([]);
    await other.close();
    await context.close();
  });
});

describe("マイコレクション on a phone: a long press types a number", () => {
  it("at 390×844: a finger held on a card face opens the number field without adding one, no context menu or selection; a tap still adds one; the count button stays for keyboards", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const errors = watchConsole(page);
    await signUp(context.request, baseUrl, "図鑑長押し", String(Math.floor(Math.random() * 1e16)).padStart(16, "4"));
    await page.goto(`${baseUrl}/collection`);
    const tiles = page.locator("li[data-card-id]");
    await expect.poll(() => tiles.count()).toBeGreaterThanOrEqual(3);
    // Context menus the page did not stop (a long press would open one over the card).
    await page.evaluate(() => {
      const w = window as unknown as { menus: number };
      w.menus = 0;
      window.addEventListener("contextmenu", (event) => {
        if (!event.defaultPrevented) w.menus++;
      });
    });

    // A real touch, through DevTools: the finger goes down on the face and stays 0.8 s.
    const first = tiles.nth(0);
    const face = first.getByRole("button", { name: /を1枚追加$/ });
    const box = (await face.boundingBox())!;
    const touch = await context.newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    await page.waitForTimeout(800);
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const field = first.getByRole("textbox", { name: /の枚数を入力$/ });
    await expect.poll(() => field.isVisible()).toBe(true);
    expect(await first.getAttribute("data-count")).toBe("0");
    expect(await page.evaluate(() => (window as unknown as { menus: number }).menus)).toBe(0);
    expect(await page.evaluate(() => String(window.getSelection() ?? ""))).toBe("");
    await field.fill("4");
    await first.getByRole("button", { name: "決定" }).click();
    await expect.poll(() => first.getAttribute("data-count")).toBe("4");
    await expect.poll(() => saveState(page)).toBe("idle");

    // A tap (a finger down and up at once) still adds one, and opens nothing.
    const second = tiles.nth(1);
    const secondBox = (await second.getByRole("button", { name: /を1枚追加$/ }).boundingBox())!;
    await page.touchscreen.tap(secondBox.x + secondBox.width / 2, secondBox.y + secondBox.height / 2);
    await expect.poll(() => second.getAttribute("data-count")).toBe("1");
    expect(await second.getByRole("textbox").count()).toBe(0);

    // A finger that moves (scrolling the grid) is not a press.
    const third = tiles.nth(2);
    const thirdBox = (await third.getByRole("button", { name: /を1枚追加$/ }).boundingBox())!;
    const from = { x: thirdBox.x + thirdBox.width / 2, y: thirdBox.y + thirdBox.height / 2 };
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
    await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from.x, y: from.y - 40 }] });
    await page.waitForTimeout(800);
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    expect(await third.getByRole("textbox").count()).toBe(0);

    // Keyboards: the count button opens the same field.
    await third.getByRole("button", { name: /の所持枚数/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => third.getByRole("textbox", { name: /の枚数を入力$/ }).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.locator("li[data-card-id]").nth(0).getAttribute("data-count")).toBe("4");
    await expect.poll(() => page.locator("li[data-card-id]").nth(1).getAttribute("data-count")).toBe("1");
    expect(errors).toEqual([]);
    await context.close();
  });
});
