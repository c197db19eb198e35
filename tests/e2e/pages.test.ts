import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");

// Every public page of docs/product-rules.md §2, on a desktop and a phone viewport.
const PUBLIC_PAGES = ["/", "/cards", "/articles", "/deck-recipes", "/trades", "/login", "/signup", "/privacy-policy", "/terms"];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("public pages", () => {
  for (const path of PUBLIC_PAGES) {
    it(`${path} renders with a title, no console errors and no serious axe violations`, async () => {
      for (const options of [{}, PHONE]) {
        const context = await newContext(browser, options);
        const page = await context.newPage();
        const problems = watchConsole(page);
        const response = await page.goto(baseUrl + path, { waitUntil: "networkidle" });
        expect(response?.status()).toBe(200);
        expect(await page.title()).toMatch(/トレポケ/);
        expect(await page.locator('meta[name="description"]').getAttribute("content")).toBeTruthy();
        expect(await seriousA11yViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      }
    });
  }

  it("the home page shows the newest pack and real cards from the database", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(baseUrl + "/");
    await expect(page.getByRole("heading", { name: /最新パック/ }).textContent()).resolves.toMatch(/最新パック：/);
    // Card images are not available offline: each featured card is a readable placeholder.
    const placeholders = page.locator('section[aria-labelledby="newest-pack"] [role="img"]');
    expect(await placeholders.count()).toBeGreaterThan(0);
    expect(await placeholders.first().getAttribute("aria-label")).toMatch(/（.+・.+）/);
    await context.close();
  });

  it("protected pages answer a signed-out visitor with a server-side redirect to /login", async () => {
    for (const path of ["/profile", "/profile?tab=trades"]) {
      const res = await fetch(baseUrl + path, { redirect: "manual" });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    // The admin page is not a redirect: the server renders ログインが必要です with 401.
    const admin = await fetch(`${baseUrl}/admin`, { redirect: "manual" });
    expect(admin.status).toBe(401);
    expect(await admin.text()).toContain("ログインが必要です");
  });

  it("an unknown path answers 404 with a Japanese message", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const response = await page.goto(baseUrl + "/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("ページが見つかりません");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems.filter((p) => !/404/.test(p))).toEqual([]);
    await context.close();
  });
});
