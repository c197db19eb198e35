import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, watchConsole } from "#tests/support/browser.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The number of text lines an element's text takes (a word wrapped in two counts two). */
function lineCount(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    return tops.size;
  });
}

describe("the article editor's messages", () => {
  it("names field problems at their fields (not 記事の保存に失敗しました), and a banner clears on the next action", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole("button", { name: "新規作成" }).click();
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("タイトルを入力してください", { exact: true }).waitFor();
    await page.getByText("カテゴリーを選択してください", { exact: true }).waitFor();
    await page.getByText("入力内容を確認してください", { exact: true }).waitFor();
    expect(await page.getByText("記事の保存に失敗しました").count()).toBe(0);
    expect(await page.getByLabel("タイトル", { exact: true }).getAttribute("aria-invalid")).toBe("true");

    // Typing into a field is the next action: the summary goes with the field's own message.
    const title = `消える通知${randomBytes(2).toString("hex")}`;
    await page.getByLabel("タイトル", { exact: true }).fill(title);
    expect(await page.getByText("入力内容を確認してください", { exact: true }).count()).toBe(0);
    await page.getByLabel("カテゴリー", { exact: true }).selectOption("news");
    await page.getByRole("tab", { name: "本文", exact: true }).click();
    await page.locator('textarea[name="content"]').fill("すぐに消す記事です。");
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("記事を投稿しました").waitFor();

    // The next action (削除) takes the success banner down; the delete has its own.
    await page.getByRole("button", { name: `削除: ${title}` }).click();
    await page.getByRole("dialog", { name: "記事を削除しますか？" }).waitFor();
    expect(await page.getByText("記事を投稿しました").count()).toBe(0);
    await page.getByRole("dialog").getByRole("button", { name: "削除する" }).click();
    await page.getByText("記事を削除しました").waitFor();
    await page.getByRole("button", { name: "新規作成" }).click();
    expect(await page.getByText("記事を削除しました").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("publishing a deck that breaks the rules", () => {
  it("asks the administrator to confirm first; キャンセル keeps it unsaved, 公開する publishes it", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const name = `四枚デッキ${randomBytes(2).toString("hex")}`;
    const created = await context.request.post(`${baseUrl}/api/admin/decks`, {
      data: { name, tier: 4, category: "deck-recipe", energyTypes: ["electric"], cards: [{ cardId: "A1-096", count: 2 }, { cardId: "A1-104", count: 2 }] },
      headers: { origin: baseUrl },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id, slug } = (await created.json()) as { id: string; slug: string };
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin/deck-recipes/edit/${id}`);
    await page.getByLabel("デッキ名", { exact: true }).waitFor();
    await page.getByLabel("公開する").check();
    await page.getByRole("button", { name: "保存", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "ルールを満たさないデッキを公開しますか？" });
    await dialog.waitFor();
    await dialog.getByText("デッキはちょうど20枚にしてください（現在4枚）").waitFor();
    await dialog.getByRole("button", { name: "キャンセル" }).click();
    expect(await dialog.count()).toBe(0);
    expect((await context.request.get(`${baseUrl}/api/decks/${slug}`)).status()).toBe(404);

    await page.getByRole("button", { name: "保存", exact: true }).click();
    await dialog.getByRole("button", { name: "このまま公開する" }).click();
    await page.waitForURL(/\/admin\?tab=decks&saved=updated$/);
    expect((await context.request.get(`${baseUrl}/api/decks/${slug}`)).status()).toBe(200);

    // A private deck is saved without asking, whatever its cards.
    await page.goto(`${baseUrl}/admin/deck-recipes/edit/${id}`);
    await page.getByLabel("公開する").uncheck();
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.waitForURL(/\/admin\?tab=decks&saved=updated$/);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the admin on a phone and at desktop width", () => {
  it("each table row is a card with its actions at 390 px: no one-character lines, dates whole", async () => {
    const context = await newContext(browser, PHONE);
    await signInAdmin(context, baseUrl);
    await context.request.post(`${baseUrl}/api/admin/articles`, {
      data: { title: `スマホ表示の確認記事${randomBytes(2).toString("hex")}`, category: "maintenance", content: "本文です。", isPublic: false },
      headers: { origin: baseUrl },
    });
    await context.request.post(`${baseUrl}/api/admin/decks`, { data: { name: `スマホ表示のデッキ${randomBytes(2).toString("hex")}`, tier: 1, category: "deck-recipe" }, headers: { origin: baseUrl } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    for (const tab of ["", "?tab=decks"]) {
      await page.goto(`${baseUrl}/admin${tab}`);
      const row = page.locator("tbody tr").first();
      await row.waitFor();
      const box = (await row.boundingBox())!;
      // A card: the row spans the screen's width less the page margins, nothing scrolls sideways.
      expect(box.width).toBeGreaterThan(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const cell of await row.locator("td, th").all()) {
        const width = (await cell.boundingBox())?.width ?? 0;
        if (width > 0) expect(width).toBeGreaterThan(200);
      }
      expect(await lineCount(page, "tbody tr time")).toBe(1);
      // The actions are in the card, as buttons or links of their own.
      expect(await row.getByRole("button").count()).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the deck slug prefix /deck-recipes/ stays on one line at 1280 px", async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/deck-recipes/new`);
    const prefix = page.getByText("/deck-recipes/", { exact: true });
    await prefix.waitFor();
    expect(await lineCount(page, "text=/deck-recipes/")).toBe(1);
    // The same in a デッキ管理 panel, which is narrower than the editor page.
    await page.goto(`${baseUrl}/admin?tab=decks`);
    await page.getByRole("button", { name: "この画面で新規作成" }).click();
    await page.getByText("/deck-recipes/", { exact: true }).waitFor();
    expect(await lineCount(page, "text=/deck-recipes/")).toBe(1);
    await context.close();
  });
});
