import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readCatalogue } from "#app/features/cards/catalogue.server.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
// The e2e server makes this address an administrator (global-setup.ts ADMIN_EMAILS).
// Screenshots for the closing note: never inside the repository.
const SHOTS = process.env.CARD_FACES_SHOTS ?? null;
const VIEWPORTS = [
  { name: "390", options: PHONE },
  { name: "1280", options: { viewport: { width: 1280, height: 900 } } },
] as const;

const catalogue = readCatalogue();
const catalogueCard = (id: string) => catalogue.cards.find((c) => c.id === id)!;

let browser: Browser;
let articleSlug: string;
let articleTitle: string;
let deckSlug: string;


async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
  const context = await newContext(browser);
  await signInAdmin(context, baseUrl);
  const tag = randomBytes(3).toString("hex");
  articleTitle = `カードブロックの記事${tag}`;
  // ゼニガメ A1 053 (水), フシギダネ A1 001 (草) and a trainer, between paragraphs; A1-999 does not exist.
  const article = await context.request.post(`${baseUrl}/api/admin/articles`, {
    data: { title: articleTitle, category: "guide", isPublic: true, content: "## 序盤の動き\nまずはこのカード。\n[[card:A1-053]]\n次に草タイプ。\n[[card:A1-001]]\n[[card:A1-999]]\n以上です。" },
    headers: { origin: baseUrl },
  });
  expect(article.status(), await article.text()).toBe(201);
  articleSlug = ((await article.json()) as { slug: string }).slug;
  const deck = await context.request.post(`${baseUrl}/api/admin/decks`, {
    data: {
      name: `カメックスデッキ${tag}`,
      tier: 1,
      category: "event",
      isPublic: true,
      publishIllegal: true,
      description: "## 回し方\n[[card:A1-055]]\nカメックスで攻撃します。",
      cards: [
        { cardId: "A1-053", count: 2 },
        { cardId: "A1-054", count: 2 },
        { cardId: "A1-055", count: 2 },
      ],
    },
    headers: { origin: baseUrl },
  });
  expect(deck.status(), await deck.text()).toBe(201);
  deckSlug = ((await deck.json()) as { slug: string }).slug;
  await context.close();
});
afterAll(async () => {
  await browser?.close();
});

describe("card blocks and card facts everywhere", () => {
  for (const viewport of VIEWPORTS) {
    it(`an article's card blocks draw the card face, linking to the card page, at ${viewport.name} px`, async () => {
      const context = await newContext(browser, viewport.options);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/articles/${articleSlug}`);
      const body = page.locator("article .content-body");
      const squirtle = body.locator('[data-content-card="A1-053"]');
      await squirtle.waitFor();
      // The card face component: a Pokémon frame in the type's colour (水), name, rarity and set + number.
      const face = squirtle.locator('[data-card-art] [role="img"]');
      await expect(face.getAttribute("data-card-kind")).resolves.toBe("pokemon");
      await expect(face.getAttribute("class")).resolves.toMatch(/\bbg-type-water\b/);
      await expect(face.getAttribute("aria-label")).resolves.toContain("ゼニガメ");
      const caption = await squirtle.innerText();
      expect(caption).toContain("ゼニガメ");
      expect(caption).toContain("◆");
      expect(caption).toContain("A1 053");
      await expect(squirtle.locator("a").getAttribute("href")).resolves.toBe("/cards/A1-053");
      await expect(body.locator('[data-content-card="A1-001"] [role="img"]').getAttribute("class")).resolves.toMatch(/\bbg-type-grass\b/);
      // The frame is drawn, not an empty box: its name is printed inside it.
      await expect(face.innerText()).resolves.toContain("ゼニガメ");
      expect(await body.locator(".content-card:not(.content-card-missing) .content-card-placeholder").count()).toBe(0);
      // An unknown card still says so; the text around the blocks stays in order.
      await expect(body.getByText("カードが見つかりません（A1-999）").isVisible()).resolves.toBe(true);
      const text = await body.innerText();
      expect(text.indexOf("まずはこのカード。")).toBeLessThan(text.indexOf("次に草タイプ。"));
      expect(text.indexOf("次に草タイプ。")).toBeLessThan(text.indexOf("以上です。"));
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, `article-${viewport.name}`);

      // A client navigation brings the body with its data: the same faces.
      await page.goto(`${baseUrl}/articles`);
      await page.getByRole("link", { name: new RegExp(articleTitle) }).first().click();
      await page.waitForURL(`${baseUrl}/articles/${articleSlug}`);
      await expect(body.locator('[data-content-card="A1-053"] [role="img"]').getAttribute("class")).resolves.toMatch(/\bbg-type-water\b/);
      expect(problems).toEqual([]);
      await context.close();
    });

    it(`a deck page shows its Pokémon's facts and its text's card block at ${viewport.name} px`, async () => {
      const context = await newContext(browser, viewport.options);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/deck-recipes/${deckSlug}`);
      const facts = page.locator("[data-deck-card-facts]");
      await facts.waitFor();
      const squirtle = catalogueCard("A1-053");
      const blastoise = catalogueCard("A1-055");
      const row = facts.locator('[data-deck-card-fact="A1-053"]');
      await expect(row.locator('[data-fact="type"]').innerText()).resolves.toBe("水");
      await expect(row.locator('[data-fact="hp"]').innerText()).resolves.toBe(String(squirtle.hp));
      await expect(row.locator('[data-fact="stage"]').innerText()).resolves.toBe("たね");
      await expect(row.locator("[data-retreat]").getAttribute("data-retreat")).resolves.toBe(String(squirtle.retreatCost));
      expect(await row.locator("[data-attack]").count()).toBe(squirtle.attacks!.length);
      expect(await row.locator("[data-attack]").first().locator("[data-energy]").count()).toBe(squirtle.attacks![0]!.cost.length);
      const blastoiseRow = facts.locator('[data-deck-card-fact="A1-055"]');
      await expect(blastoiseRow.locator('[data-fact="hp"]').innerText()).resolves.toBe(String(blastoise.hp));
      await expect(blastoiseRow.locator('[data-fact="stage"]').innerText()).resolves.toBe("2進化");
      await expect(blastoiseRow.locator('[data-fact="weakness"]').innerText()).resolves.toBe("雷");
      // Cost and damage only: no English attack name on a Japanese page.
      const main = await page.locator("main").innerText();
      expect(main).not.toMatch(/Water Gun|Hydro Pump|Surf/);
      // The description's card block is the card face too.
      const block = page.locator('section[aria-labelledby="deck-description"] [data-content-card="A1-055"] [role="img"]');
      await expect(block.getAttribute("class")).resolves.toMatch(/\bbg-type-water\b/);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, `deck-${viewport.name}`);
      expect(problems).toEqual([]);
      await context.close();
    });

    it(`the card page's evolution line links the same set's print, and the home strip draws no grey disc for a typed card, at ${viewport.name} px`, async () => {
      const context = await newContext(browser, viewport.options);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/cards/A1-053`);
      const line = page.locator("[data-evolution-line]");
      await expect(line.locator("a", { hasText: "カメックス" }).first().getAttribute("href")).resolves.toMatch(/^\/cards\/A1-\d{3}$/);
      await expect(line.locator("a", { hasText: "カメール" }).first().getAttribute("href")).resolves.toMatch(/^\/cards\/A1-\d{3}$/);

      await page.goto(`${baseUrl}/`);
      const strip = page.locator('section[aria-labelledby="newest-pack"] li');
      expect(await strip.count()).toBeGreaterThan(0);
      const newestPack = catalogue.packs.toSorted((a, b) => b.releaseDate.localeCompare(a.releaseDate))[0]!;
      for (const tile of await strip.all()) {
        const href = (await tile.locator("a").getAttribute("href"))!;
        const card = catalogueCard(decodeURIComponent(href.replace("/cards/", "")));
        expect(card.packIds).toContain(newestPack.id);
        const face = tile.locator('[data-card-art="placeholder"] [role="img"]');
        if (!(await face.count())) continue;
        // The frame and its type mark are grey only where no source knows the card's type.
        const unknownMarks = await face.locator("svg.fill-type-unknown").count();
        const grey = /\bbg-type-unknown\b/.test((await face.getAttribute("class")) ?? "");
        const trainer = (await face.getAttribute("data-card-kind")) === "trainer";
        expect({ id: card.id, grey: grey || unknownMarks > 0 }).toEqual({ id: card.id, grey: !trainer && !card.element });
      }
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, `home-${viewport.name}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it("the card picker's details show the chosen card's type, HP and attacks, as the card page does", async () => {
    for (const viewport of VIEWPORTS) {
      const context = await newContext(browser, viewport.options);
      await signInAdmin(context, baseUrl);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/admin`);
      await page.getByRole("button", { name: "新規作成" }).click();
      await page.getByRole("tab", { name: "本文", exact: true }).click();
      await page.getByRole("button", { name: "カード", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "カードを挿入" });
      const squirtle = catalogueCard("A1-053");
      await dialog.getByLabel("パック").selectOption(squirtle.packIds[0]!);
      await dialog.getByLabel("カード名で検索").fill("ゼニガメ");
      await dialog.getByRole("list").getByRole("button", { name: /ゼニガメ ◆ A1 053/ }).click();
      const details = dialog.locator('[data-card-details="A1-053"]');
      await expect(details.locator('[data-fact="hp"]').innerText()).resolves.toBe(String(squirtle.hp));
      await expect(details.locator('[data-fact="type"]').innerText()).resolves.toBe("水");
      expect(await details.locator("[data-attack]").count()).toBe(squirtle.attacks!.length);
      expect(await details.innerText()).not.toMatch(/Water Gun/);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, `picker-${viewport.name}`);

      // Inserted, the editor's preview draws the block with the same card face.
      await dialog.getByRole("button", { name: "挿入" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("tab", { name: "プレビュー", exact: true }).click();
      const preview = page.getByTestId("content-preview");
      const face = preview.locator('[data-content-card="A1-053"] [role="img"]');
      await expect(face.getAttribute("class")).resolves.toMatch(/\bbg-type-water\b/);
      await expect(preview.locator('[data-content-card="A1-053"]').innerText()).resolves.toContain("A1 053");
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, `preview-${viewport.name}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
