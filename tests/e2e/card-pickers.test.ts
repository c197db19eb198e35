import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { signUpVerified } from "#tests/support/verified-account.ts";

// A server of its own: the test pages through whole packs of the catalogue as a fresh install has it.
const ADMIN = { email: "admin-pickers@example.com", password: "admin-pickers-password", name: "管理者" };
let server: RunningServer;
let baseUrl: string;
const PRINT = /[A-Z][0-9A-Za-z-]* \d{3}$/;

let browser: Browser;
beforeAll(async () => {
  server = await startServer({ ADMIN_EMAILS: ADMIN.email });
  baseUrl = server.url;
  await signUpVerified(server, ADMIN);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Card = { id: string; name: string; rarity: string; setCode: string | null; number: number | null };

/** Every card of a pack through the cards API, page after page. */
async function wholePack(context: BrowserContext, pack: string): Promise<Card[]> {
  const cards: Card[] = [];
  let cursor: string | null = null;
  do {
    const answer = await context.request.get(`${baseUrl}/api/cards?pack=${pack}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    const page = (await answer.json()) as { cards: Card[]; nextCursor: string | null };
    cards.push(...page.cards);
    cursor = page.nextCursor;
  } while (cursor);
  return cards;
}

describe("the editors' card pickers", () => {
  it("name each print by set and number, so prints of one name differ, and the deck editor's list goes through a whole pack", async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    expect((await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: ADMIN, headers: { origin: baseUrl } })).ok()).toBe(true);
    const pack = await wholePack(context, "pikachu");
    // A name the pack prints more than once (an ex and its full-art prints).
    const byName = Map.groupBy(pack, (card) => card.name);
    const [twinName, twins] = [...byName].find(([, prints]) => prints.length >= 2)!;
    expect(pack.length).toBeGreaterThan(60);

    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin/deck-recipes/new`);
    await page.getByRole("tab", { name: "コンテンツ編集" }).click();
    await page.getByRole("tab", { name: "カードリスト" }).click();
    await page.getByTestId("deck-picker-pack").selectOption("pikachu");
    const rows = page.getByTestId("deck-picker-card");
    const more = page.getByTestId("deck-picker-more");
    // The pack has more than a page: its first page comes with さらに表示.
    await more.waitFor();
    expect(await rows.count()).toBeLessThan(pack.length);
    // さらに表示 until the pack ends: every card of it, once.
    while (await more.isVisible()) {
      const before = await rows.count();
      await more.click();
      await expect.poll(() => rows.count()).toBeGreaterThan(before);
    }
    expect(await rows.count()).toBe(pack.length);
    // Each add button says which print it adds; the prints of one name read differently.
    await page.getByLabel("カード名で検索").fill(twinName);
    await expect.poll(() => rows.count()).toBe(twins.length);
    const addNames = await Promise.all((await rows.getByRole("button").all()).map((b) => b.getAttribute("aria-label")));
    expect(new Set(addNames).size).toBe(twins.length);
    for (const name of addNames) expect(name).toMatch(new RegExp(`^${twinName} .+ [A-Z][0-9A-Za-z-]* \\d{3}を追加$`));
    for (const row of await rows.all()) expect(await row.textContent()).toMatch(/[A-Z][0-9A-Za-z-]* \d{3}/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The article editor's picker (the deck editor's text has the same one): names and 選択中 with the print.
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole("button", { name: "新規作成" }).click();
    await page.getByRole("tab", { name: "本文", exact: true }).click();
    await page.getByRole("button", { name: "カード", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "カードを挿入" });
    await dialog.getByLabel("パック").selectOption("pikachu");
    await dialog.getByLabel("カード名で検索").fill(twinName);
    const choices = dialog.getByRole("list").getByRole("button");
    await expect.poll(() => choices.count()).toBe(twins.length);
    const choiceNames = await Promise.all((await choices.all()).map((b) => b.textContent()));
    expect(new Set(choiceNames).size).toBe(twins.length);
    for (const name of choiceNames) expect(name).toMatch(PRINT);
    await choices.nth(1).click();
    expect(await dialog.getByText(/^選択中: /).textContent()).toBe(`選択中: ${choiceNames[1]}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
