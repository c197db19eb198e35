import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signUp } from "#tests/support/chat-e2e.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");
const SHOTS = process.env.DECK_COLLECTION_SHOTS_DIR ?? "";

// A legal Pikachu ex deck of the first set: 10 cards × 2; four are promos (not tradeable).
const DECK = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"];

let browser: Browser;
let slug: string;
let deckName: string;
beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await newContext(browser);
  await signInAdmin(admin, baseUrl);
  const created = await admin.request.post(`${baseUrl}/api/admin/decks`, {
    data: { name: (deckName = `コレクション照合デッキ${randomBytes(2).toString("hex")}`), tier: 1, category: "deck-recipe", energyTypes: ["electric"], cards: DECK.map((cardId) => ({ cardId, count: 2 })), isPublic: true },
    headers: { origin: baseUrl },
  });
  if (!created.ok()) throw new Error(`deck not created: ${created.status()} ${await created.text()}`);
  ({ slug } = (await created.json()) as { slug: string });
  await admin.close();
});
afterAll(async () => {
  await browser?.close();
});

const viewports = [
  { name: "phone", options: PHONE },
  { name: "desktop", options: { viewport: { width: 1280, height: 900 } } },
] as const;

describe("a deck and the packs against my collection", () => {
  for (const { name, options } of viewports) {
    it(`${name}: the deck page marks owned and missing cards, adds the missing ones to the want list; どのパックを引く？ ranks the packs; axe clean`, async () => {
      const context = await newContext(browser, options);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await signUp(context.request, baseUrl, `照合${name}`, String(Math.floor(Math.random() * 1e16)).padStart(16, "1"));
      // Two copies of ピカチュウex (enough) and one サンダーex (one short).
      const counts = await context.request.post(`${baseUrl}/api/collection/counts`, {
        data: { changes: [{ cardId: "A1-096", count: 2 }, { cardId: "A1-104", count: 1 }] },
        headers: { origin: baseUrl },
      });
      expect(counts.ok(), await counts.text()).toBe(true);

      await page.goto(`${baseUrl}/deck-recipes/${slug}`);
      const panel = page.getByTestId("deck-collection");
      // 1 サンダーex + 8 cards × 2 = 17 copies of 9 cards.
      await expect.poll(() => panel.textContent()).toContain("あと17枚（9種類）足りません");
      const marks = page.getByTestId("deck-card-ownership");
      await expect.poll(() => marks.count()).toBe(10);
      await expect.poll(() => page.locator('[data-testid="deck-card-ownership"][data-missing="0"]').count()).toBe(1);
      await expect.poll(() => page.getByText("あと1枚", { exact: true }).count()).toBe(1);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await panel.getByRole("button", { name: "足りないカードをほしいカードに追加" }).click();
      // The five tradeable missing cards go on the list; the four promos cannot.
      await expect.poll(() => panel.getByRole("status").textContent()).toBe("ほしいカードに5種類を追加しました。トレードできないレアリティの4種類は追加していません。");
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/deck-${name}.png`, fullPage: true });

      // The trade candidates for the missing cards: this player has not opted in, and is told how.
      await panel.getByRole("link", { name: "足りないカードのトレード候補を見る" }).click();
      await page.waitForURL(/\/collection\/trades\?deck=/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(`「${deckName}」の足りないカードのトレード候補`);
      await page.getByText("「トレードにコレクションを使う」").first().waitFor();
      await page.getByRole("link", { name: "デッキレシピに戻る" }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/deck-candidates-${name}.png`, fullPage: true });

      // The list says what each deck lacks; its collection filter あと5枚以内 leaves this one out.
      await page.goto(`${baseUrl}/deck-recipes`);
      await expect.poll(() => page.getByRole("link", { name: new RegExp(deckName) }).first().textContent()).toContain("あと17枚");
      await page.getByLabel("マイコレクション").selectOption("5");
      await page.getByRole("button", { name: "絞り込む" }).click();
      await page.waitForURL(/missing=5/);
      await expect.poll(() => page.getByRole("link", { name: new RegExp(deckName) }).count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.goto(`${baseUrl}/collection`);
      await page.getByRole("link", { name: /どのパックを引く？/ }).click();
      await page.waitForURL(/\/collection\/packs$/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("どのパックを引く？");
      const first = page.getByTestId("pack-choice").first();
      await expect.poll(() => first.textContent()).toMatch(/^1位.+新しいカードが1枚以上出る確率 \d+\.\d%・新しいカードの期待枚数 \d\.\d\d枚未所持 \d+枚（.+）$/);
      expect(await page.getByTestId("pack-choice").count()).toBeGreaterThan(3);
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/packs-${name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
