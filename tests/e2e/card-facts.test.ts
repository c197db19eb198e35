import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readCatalogueSource } from "#app/features/cards/catalogue-source.server.ts";
import { launchBrowser, newContext, PHONE, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
const SHOTS = path.join(tmpdir(), "torepoke-card-facts");
// Every English set name of the vendored data: none may reach a Japanese reader's screen.
const ENGLISH_SET_NAMES = readCatalogueSource()
  .sets.map((s) => s.name.en ?? "")
  .filter((name) => name && !/^Promo/.test(name));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

async function visibleText(page: Page, url: string): Promise<string> {
  const response = await page.goto(`${baseUrl}${url}`);
  expect(response?.status()).toBe(200);
  return page.locator("body").innerText();
}

describe("the card database in Japanese, with the game's facts", () => {
  it("shows no English set or pack name on /, /cards and a card page to a Japanese reader", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchConsole(page);
    expect(ENGLISH_SET_NAMES).toEqual(expect.arrayContaining(["Paradox Drive", "Ruler of the Skies", "Pulsing Aura"]));
    for (const url of ["/", "/cards", "/cards/B3a-010", "/cards?pack=b4-ruler-of-the-skies"]) {
      const text = await visibleText(page, url);
      for (const name of ENGLISH_SET_NAMES) expect(text, `${url} shows ${name}`).not.toContain(name);
    }
    // 最新パック is the newest set by release date, by its Japanese name; a card page names its set.
    expect(await visibleText(page, "/")).toContain("最新パック：天空の支配者");
    expect(await visibleText(page, "/cards/B3a-010")).toContain("進撃パラドックス");
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const viewport of [{ name: "390", options: PHONE }, { name: "1280", options: { viewport: { width: 1280, height: 900 } } }]) {
    it(`shows type, HP, weakness, retreat and each attack's cost and damage for a B2 and a B3a card at ${viewport.name} px`, async () => {
      const context = await newContext(browser, viewport.options);
      const page = await context.newPage();
      const errors = watchConsole(page);
      // B2-003 ツボツボ: 草, HP 80, 弱点 炎, にげる 1, one attack 草草 40.
      await page.goto(`${baseUrl}/cards/B2-003`);
      const b2 = page.locator("main dl");
      await expect.poll(() => b2.innerText()).toContain("HP");
      const b2Text = await b2.innerText();
      expect(b2Text).toContain("草");
      expect(b2Text).toContain("80");
      expect(b2Text).toContain("炎");
      expect(await page.locator("[data-retreat] [data-energy=colorless]").count()).toBe(1);
      const b2Attacks = page.locator("[data-attacks] [data-attack]");
      expect(await b2Attacks.count()).toBe(1);
      expect(await b2Attacks.first().locator("[data-energy=grass]").count()).toBe(2);
      expect(await b2Attacks.first().innerText()).toContain("40");
      await page.screenshot({ path: path.join(SHOTS, `b2-003-${viewport.name}.png`), fullPage: true });

      // B3a-010 フローゼル: 水, HP 100, 弱点 雷, にげる 1, one attack 水 10+.
      await page.goto(`${baseUrl}/cards/B3a-010`);
      const b3aText = await page.locator("main dl").innerText();
      expect(b3aText).toContain("水");
      expect(b3aText).toContain("100");
      expect(b3aText).toContain("雷");
      expect(await page.locator("[data-retreat] [data-energy=colorless]").count()).toBe(1);
      const b3aAttack = page.locator("[data-attacks] [data-attack]").first();
      expect(await b3aAttack.locator("[data-energy=water]").count()).toBe(1);
      expect(await b3aAttack.innerText()).toContain("10+");
      // No English sentence: the attack's English name is not on the page.
      expect(await page.locator("main").innerText()).not.toMatch(/Aqua|Water Gun|Jet/);
      await page.screenshot({ path: path.join(SHOTS, `b3a-010-${viewport.name}.png`), fullPage: true });

      // A B4 card: no source has its facts, so none are shown (no guessed 無色, no attacks).
      await page.goto(`${baseUrl}/cards/B4-001`);
      expect(await page.locator("[data-attacks]").count()).toBe(0);
      expect(await page.locator("[data-retreat]").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("links an evolution step to the print of the same set, not a promo", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/cards/A1-053`);
    const blastoise = page.locator("[data-evolution-line] a", { hasText: "カメックス" }).first();
    const href = await blastoise.getAttribute("href");
    expect(href).toMatch(/^\/cards\/A1-/);
    await context.close();
  });
});
