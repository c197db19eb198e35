import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Adds `copies` of the card named `name` with rarity `rarity` from `pack` through the editor's card picker. */
async function addCard(page: Page, pack: string, name: string, rarity: string, copies: 1 | 2) {
  await page.getByTestId("deck-picker-pack").selectOption(pack);
  await page.getByLabel("カード名で検索").fill(name);
  // The add button names the print too: "ピカチュウex ◆◆◆◆ A1 096を追加".
  const addName = new RegExp(`^${name} ${rarity}( [A-Z][0-9A-Za-z-]* \\d{3})?を追加$`);
  const row = page.locator("li").filter({ has: page.getByRole("button", { name: addName }) }).first();
  await row.getByRole("combobox").selectOption(String(copies));
  await row.getByRole("button", { name: addName }).click();
  await page.getByRole("combobox", { name: `${name}の枚数` }).first().waitFor();
}

const deckName = `ピカチュウexデッキ${randomBytes(2).toString("hex")}`;

describe("deck recipes", () => {
  it("an admin builds a 20-card deck through the picker, reorders, sets tier, energy and eyecatch, previews and publishes", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    const problems = watchConsole(page);

    await page.goto(`${baseUrl}/admin?tab=decks`);
    await page.getByRole("link", { name: "新しいデッキを作成" }).click();
    await page.waitForURL(`${baseUrl}/admin/deck-recipes/new`);
    await page.getByRole("heading", { name: "デッキ作成", level: 1 }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const save = page.getByRole("button", { name: "保存", exact: true });
    await page.getByLabel("デッキ名", { exact: true }).fill(deckName);
    await page.getByLabel("Tier", { exact: true }).selectOption("1");
    await page.getByLabel("カテゴリー", { exact: true }).selectOption("deck-recipe");
    await page.getByText("雷", { exact: true }).click();

    // The eyecatch through the real file picker: uploaded, cut to 1200×630, previewed.
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 250, g: 200, b: 40 } } }).png().toBuffer();
    const chooser = page.waitForEvent("filechooser");
    await page.getByText("画像を選ぶ").click();
    await (await chooser).setFiles({ name: "eyecatch.png", mimeType: "image/png", buffer: png });
    const preview = page.getByRole("img", { name: "アイキャッチのプレビュー" });
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toMatch(/^\/uploads\/eyecatches\/.+1200x630\.webp$/);

    await page.getByRole("tab", { name: "コンテンツ編集" }).click();
    await page.getByRole("tab", { name: "カードリスト" }).click();
    expect(await page.getByTestId("deck-picker-pack").inputValue()).toBe("dialga");
    await addCard(page, "pikachu", "ピカチュウex", "◆◆◆◆", 2);
    await addCard(page, "pikachu", "サンダーex", "◆◆◆◆", 2);
    await addCard(page, "pikachu", "シママ", "◆", 2);
    await addCard(page, "pikachu", "ゼブライカ", "◆◆", 2);
    await addCard(page, "charizard", "ナツメ", "◆◆", 2);
    await addCard(page, "mewtwo", "サカキ", "◆◆", 2);
    await addCard(page, "promo", "博士の研究", "PROMO", 2);
    await addCard(page, "promo", "モンスターボール", "PROMO", 2);
    await addCard(page, "promo", "スピーダー", "PROMO", 2);
    await addCard(page, "promo", "きずぐすり", "PROMO", 2);
    await expect.poll(() => page.getByTestId("deck-counter").textContent()).toBe("20/20枚");
    await page.getByText("構築可能").first().waitFor();

    // Newest on top; the top card cannot go up, the last cannot go down; ↓ moves one place.
    const names = () => page.locator("ol li span.font-medium").allTextContents();
    expect((await names())[0]).toBe("きずぐすり");
    expect(await page.getByRole("button", { name: "きずぐすりを上へ" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "ピカチュウexを下へ" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "きずぐすりを下へ" }).click();
    expect((await names()).slice(0, 2)).toEqual(["スピーダー", "きずぐすり"]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("tab", { name: "編集", exact: true }).click();
    await page.getByLabel("本文", { exact: true }).fill("**環境トップ**のデッキです。\n[[card:A1-096]]");
    await page.getByRole("tab", { name: "プレビュー" }).click();
    await page.locator("strong", { hasText: "環境トップ" }).waitFor();
    await page.locator("a[href='/cards/A1-096']").waitFor();

    await page.getByRole("tab", { name: "基本設定" }).click();
    await page.getByLabel("公開する").check();
    await save.click();
    await page.waitForURL(/\/admin\?tab=decks&saved=created$/);
    await page.getByText("デッキを保存しました").waitFor();
    const row = page.getByRole("row").filter({ hasText: deckName });
    await row.getByText("公開", { exact: true }).waitFor();
    await row.getByText("20枚").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a visitor on a phone opens the deck from /deck-recipes and the home page, and 足りないカードを募集する prefills a new offer", async () => {
    const context = await newContext(browser, PHONE);
    const tag = randomBytes(3).toString("hex");
    const signup = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: { name: `デッキ${tag}`, email: `deck-${tag}@example.com`, password: "deck-pass-1234" }, headers: { Origin: baseUrl } });
    expect(signup.status()).toBe(200);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/profile`);
    await page.fill("#profile-friend-id-input", `1234-5678-9012-${Math.floor(1000 + Math.random() * 8999)}`);
    await page.locator("form:has(#profile-friend-id-input) button[type=submit]").click();
    await page.getByTestId("profile-friend-id").waitFor();

    await page.goto(`${baseUrl}/`);
    await page.getByRole("heading", { name: "デッキレシピ" }).waitFor();
    expect(await page.getByRole("link", { name: new RegExp(deckName) }).count()).toBeGreaterThan(0);

    await page.goto(`${baseUrl}/deck-recipes?energy=electric`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("link", { name: new RegExp(deckName) }).first().click();
    await page.getByRole("heading", { name: deckName, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/deck-recipes\/deck-[0-9a-f]{8}$/);
    await page.getByText("構築可能").waitFor();
    await page.getByRole("heading", { name: "ポケモン" }).waitFor();
    await page.getByRole("heading", { name: "トレーナーズ" }).waitFor();
    expect(await page.locator('script[type="application/ld+json"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"@type":"Article"')]));
    expect(await page.locator('meta[property="og:image"]').getAttribute("content")).toMatch(/\/share\/deck\/[^/]+\/[0-9a-f]{16}\.webp$/); // the deck's own share image
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "足りないカードを募集する" }).click();
    await page.waitForURL(/\/trades\/new\?want=/);
    const wantSide = page.locator("fieldset").filter({ hasText: "求" }).last();
    for (const name of ["ピカチュウex", "サンダーex", "シママ", "ゼブライカ"]) await wantSide.getByText(name, { exact: true }).waitFor();
    // PROMO cards cannot be traded and are left out.
    expect(await wantSide.getByText("きずぐすり").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a deck's description is markup once in its document, kept by hydration, and comes with the data of a client navigation", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const name = `説明つきデッキ${randomBytes(2).toString("hex")}`;
    const created = await context.request.post(`${baseUrl}/api/admin/decks`, {
      data: { name, tier: 1, category: "event", isPublic: true, publishIllegal: true, description: "## 回し方\n**先攻**から雷エネルギーを加速します。" },
      headers: { origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    const { slug } = (await created.json()) as { slug: string };
    const visitor = await newContext(browser);
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    const documentHtml = await (await fetch(`${baseUrl}/deck-recipes/${slug}`)).text();
    // The markup once, and not again escaped in the hydration data (its text is the meta description too).
    expect(documentHtml.split("先攻</strong>から雷").length - 1).toBe(1);
    expect(documentHtml).not.toContain("先攻\\u003c/strong\\u003eから雷");
    await page.goto(`${baseUrl}/deck-recipes/${slug}`);
    await page.waitForLoadState("networkidle");
    const description = page.locator('section[aria-labelledby="deck-description"] .content-body');
    await description.locator("h2", { hasText: "回し方" }).waitFor();
    await description.locator("strong", { hasText: "先攻" }).waitFor();
    // Away to the list and back, in the same document: the description comes with the page's data.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.locator('header a[href="/deck-recipes"]').first().click();
    await page.waitForURL(`${baseUrl}/deck-recipes`);
    await page.getByRole("link", { name: new RegExp(name) }).first().click();
    await page.waitForURL(`${baseUrl}/deck-recipes/${slug}`);
    await description.locator("h2", { hasText: "回し方" }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(problems).toEqual([]);
    await visitor.close();
    await context.close();
  });

  it("deleting a deck asks first", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const created = await context.request.post(`${baseUrl}/api/admin/decks`, { data: { name: "削除するデッキ", tier: 4, category: "event" }, headers: { origin: baseUrl } });
    expect(created.status()).toBe(201);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin?tab=decks`);
    const row = page.getByRole("row").filter({ hasText: "削除するデッキ" });
    await row.getByText("非公開").waitFor();
    await row.getByRole("button", { name: "削除: 削除するデッキ" }).click();
    const dialog = page.getByRole("dialog", { name: "デッキを削除しますか？" });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "キャンセル" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: "削除: 削除するデッキ" }).click();
    await dialog.getByRole("button", { name: "削除する" }).click();
    await page.getByText("デッキを削除しました").waitFor();
    await row.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await context.close();
  });
});
