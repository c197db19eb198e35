import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";

// Every tablist is the one TabList (components/ui/tabs.tsx): the WAI-ARIA keys work the same in
// the deck editor and in the content editor inside it, which had no keyboard handling before.
const baseUrl = inject("baseUrl");
// An administrator on the e2e server (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const focusedTab = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute("role") === "tab" ? document.activeElement.textContent : null));

describe("tablists", () => {
  it("the deck editor's tabs and the content editor's views follow the arrows, Home and End", async () => {
    const context = await newContext(browser);
    const up = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: ADMIN, headers: { origin: baseUrl } });
    if (!up.ok()) {
      const signedIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseUrl } });
      expect(signedIn.ok()).toBe(true);
    }
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin/deck-recipes/new`);
    const tabs = page.getByRole("tablist", { name: "デッキ作成のタブ" });
    const basic = tabs.getByRole("tab", { name: "基本設定" });
    expect(await basic.getAttribute("aria-selected")).toBe("true");
    // Only the selected tab is in the tab order.
    expect(await tabs.getByRole("tab", { name: "SEO設定" }).getAttribute("tabindex")).toBe("-1");
    await basic.focus();
    await page.keyboard.press("ArrowLeft");
    await tabs.getByRole("tab", { name: "SEO設定", selected: true }).waitFor();
    expect(await focusedTab(page)).toBe("SEO設定");
    await page.keyboard.press("Home");
    await tabs.getByRole("tab", { name: "基本設定", selected: true }).waitFor();
    await page.keyboard.press("ArrowRight");
    await tabs.getByRole("tab", { name: "コンテンツ編集", selected: true }).waitFor();
    expect(await focusedTab(page)).toBe("コンテンツ編集");

    const views = page.getByRole("tablist", { name: "表示の切り替え" });
    await views.getByRole("tab", { name: "編集", exact: true }).focus();
    await page.keyboard.press("End");
    await views.getByRole("tab", { name: "プレビュー", selected: true }).waitFor();
    expect(await focusedTab(page)).toBe("プレビュー");
    await page.keyboard.press("ArrowLeft");
    await views.getByRole("tab", { name: "編集", exact: true, selected: true }).waitFor();
    expect(await focusedTab(page)).toBe("編集");
    // Past the last view the arrows wrap to the first one (the deck editor's カードリスト).
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await views.getByRole("tab", { name: "カードリスト", selected: true }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
