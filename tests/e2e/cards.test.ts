import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signUp } from "#tests/support/chat-e2e.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const suffix = () => randomBytes(4).toString("hex");

describe("card APIs", () => {
  it("GET /api/cards applies docs/product-rules.md §5 and pages with a cursor", async () => {
    const unknown = await fetch(`${baseUrl}/api/cards?pack=no-such-pack`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Unknown pack name", code: "unknown_pack_name" });
    expect((await fetch(`${baseUrl}/api/cards?pack=dialga&limit=0`)).status).toBe(400);
    expect((await fetch(`${baseUrl}/api/cards?pack=dialga&limit=101`)).status).toBe(400);
    expect((await fetch(`${baseUrl}/api/cards?pack=dialga&cursor=garbage`)).status).toBe(400);

    const first = await (await fetch(`${baseUrl}/api/cards?pack=dialga&limit=5`)).json();
    expect(first.cards).toHaveLength(5);
    expect(first.cards[0].rarity).toBe("👑");
    const second = await (await fetch(`${baseUrl}/api/cards?pack=dialga&limit=5&cursor=${first.nextCursor}`)).json();
    expect(second.cards).toHaveLength(5);
    expect(second.cards.map((c: { id: string }) => c.id)).not.toContain(first.cards[0].id);

    const common = await (await fetch(`${baseUrl}/api/cards?pack=dialga&excludeRare=1&limit=100`)).json();
    expect(common.cards.some((c: { rarity: string }) => ["☆☆", "☆☆☆", "👑"].includes(c.rarity))).toBe(false);
    const promo = await (await fetch(`${baseUrl}/api/cards?pack=promo&limit=100`)).json();
    expect(promo.cards.every((c: { rarity: string }) => c.rarity.includes("PROMO"))).toBe(true);
  });

  it("GET /api/cards/search folds kana and width, caps results, and ignores hostile input", async () => {
    const search = async (q: string, extra = "") => {
      const res = await fetch(`${baseUrl}/api/cards/search?q=${encodeURIComponent(q)}${extra}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { cards: { name: string; packId: string; rarity: string }[] }).cards;
    };
    const hiragana = await search("ぴかちゅう");
    expect(hiragana.length).toBeGreaterThan(0);
    expect(hiragana.every((c) => c.name.includes("ピカチュウ"))).toBe(true);
    expect((await search("ﾋﾟｶﾁｭｳ")).map((c) => c.name)).toEqual(hiragana.map((c) => c.name));
    const many = await search("ex");
    expect(many).toHaveLength(20);
    const perPack = new Map<string, number>();
    for (const c of many) perPack.set(c.packId, (perPack.get(c.packId) ?? 0) + 1);
    expect(Math.max(...perPack.values())).toBeLessThanOrEqual(10);
    expect(await search("%_\\'\"")).toEqual([]);
    // 10,000 characters: the query is cut to a name's length before it reaches the database.
    expect(await search("x".repeat(10_000))).toEqual([]);
    expect(await search("あ".repeat(1_000))).toEqual([]);
    const tradeable = await search("ピカチュウ", "&tradeableOnly=1&excludePacks=shining-high");
    // ☆☆ trades since the game's 2025 update (docs/decisions/018).
    expect(tradeable.some((c) => ["☆☆☆", "👑", "PROMO"].includes(c.rarity))).toBe(false);
    expect(tradeable.some((c) => c.packId === "shining-high")).toBe(false);
  });

  it("GET /api/cards/:packId/:cardId finds a card only in its pack", async () => {
    const { cards } = await (await fetch(`${baseUrl}/api/cards?pack=dialga&limit=1`)).json();
    const found = await fetch(`${baseUrl}/api/cards/dialga/${cards[0].id}`);
    expect(found.status).toBe(200);
    expect((await found.json()).card.name).toBe(cards[0].name);
    expect((await fetch(`${baseUrl}/api/cards/pikachu/${cards[0].id}`)).status).toBe(404);
  });

  it("POST /api/admin/cards/import answers 401 signed out and 403 for a non-admin", async () => {
    const body = JSON.stringify({ title: "dialga", csvData: "name,rarity,imageUrl\nx,◆,\n" });
    const signedOut = await fetch(`${baseUrl}/api/admin/cards/import`, { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: "ログインが必要です", code: "login_required" });
    const context = await newContext(browser);
    await signUp(context.request, baseUrl, "カード利用者", "1234567812345678");
    const forbidden = await context.request.post(`${baseUrl}/api/admin/cards/import`, {
      data: body,
      headers: { "content-type": "application/json", origin: baseUrl },
    });
    expect(forbidden.status()).toBe(403);
    expect(await forbidden.json()).toEqual({ error: "管理者権限がありません。", code: "admin_required" });
    await context.close();
  });
});

describe("/cards", () => {
  it("a visitor finds a card by typing hiragana and opens its page", async () => {
    for (const options of [{}, PHONE]) {
      const context = await newContext(browser, options);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/cards`, { waitUntil: "networkidle" });
      // docs/product-rules.md §9: dialga is selected first.
      expect(await page.getByLabel("パック").inputValue()).toBe("dialga");
      const box = page.getByRole("combobox", { name: "カードを検索" });
      await box.pressSequentially("ぴかちゅう");
      const option = page.getByRole("option").first();
      await option.waitFor();
      expect(await option.textContent()).toContain("ピカチュウ");
      expect(await box.getAttribute("aria-expanded")).toBe("true");
      await box.press("ArrowDown");
      await box.press("ArrowUp");
      await box.press("Enter");
      await page.getByRole("heading", { level: 1, name: /ピカチュウ/ }).waitFor();
      expect(page.url()).toMatch(/\/cards\/[^/?]+$/);
      expect(await page.getByText("収録パック").count()).toBe(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it("in English, the trade board's picker and its filter chip name cards in English", async () => {
    const context = await newContext(browser);
    await context.addCookies([{ name: "lang", value: "en", url: baseUrl }]);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/trades`, { waitUntil: "networkidle" });
    await page.getByRole("combobox", { name: "Card given" }).fill("pikachu");
    const option = page.locator("[role=listbox]:visible [role=option]").first();
    await option.waitFor();
    expect(await option.textContent()).toMatch(/^Pikachu/);
    expect(await option.textContent()).not.toContain("ピカチュウ");
    await option.click();
    await page.waitForURL(/\/trades\?give=/);
    await page.getByRole("link", { name: /^Remove the filter Pikachu/ }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the search picker passes axe while open, says when nothing matches, and shows a failed search inline", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/cards`, { waitUntil: "networkidle" });
    const box = page.getByRole("combobox", { name: "カードを検索" });
    // Typed one key at a time: each keystroke cancels the previous request, which is no error.
    await box.pressSequentially("ぴか", { delay: 350 });
    await page.getByRole("option").first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await box.press("Escape");
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    await box.fill("存在しないカード名");
    await page.getByText("検索条件に一致するカードがありません").filter({ visible: true }).waitFor();

    await page.route("**/api/cards/search?**", (route) => route.fulfill({ status: 500, body: "{}" }));
    await box.fill("ぴかちゅう");
    const failure = page.getByRole("alert").filter({ hasText: "カードの検索に失敗しました" });
    await failure.waitFor();
    // Shown in red: the text colour, rendered to a pixel, is mostly red.
    const [r, g, b] = await failure.evaluate((el) => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = getComputedStyle(el).color;
      ctx.fillRect(0, 0, 1, 1);
      return [...ctx.getImageData(0, 0, 1, 1).data];
    });
    expect(r).toBeGreaterThan(150);
    expect(r).toBeGreaterThan(2 * Math.max(g, b));
    expect(problems.filter((p) => !/status of 500/.test(p))).toEqual([]);
    await context.close();
  });

  it("filters in the URL, pages lazily, and shows the empty states", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/cards?pack=dialga&q=${encodeURIComponent("でぃあるが")}`, { waitUntil: "networkidle" });
    const tiles = page.locator('ul[aria-label="カード一覧"] li');
    expect(await tiles.count()).toBeGreaterThan(0);
    for (const text of await tiles.allTextContents()) expect(text).toContain("ディアルガ");

    await page.goto(`${baseUrl}/cards?pack=dialga`, { waitUntil: "networkidle" });
    // 36 cards a page (cards.server.ts DEFAULT_PAGE_SIZE): a page of the largest pack stays light.
    expect(await tiles.count()).toBe(36);
    await page.getByRole("link", { name: "次のページ" }).click();
    await page.waitForURL(/cursor=/);
    // The URL changes as the navigation commits; the new page renders right after.
    await page.getByText(/枚中 37〜72枚目/).waitFor();
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("cursor"));

    await page.getByLabel("レアリティ").selectOption("👑");
    await page.waitForURL(/rarity=/);
    await expect
      .poll(async () => {
        const texts = await tiles.allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes("👑"));
      })
      .toBe(true);

    // A card of the list opens its page in the app, not as a new document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const firstCard = tiles.first().locator("a");
    const cardPath = await firstCard.getAttribute("href");
    await firstCard.click();
    await page.waitForURL(`${baseUrl}${cardPath}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    await page.goto(`${baseUrl}/cards?pack=dialga&q=${encodeURIComponent("存在しないカード名")}`, { waitUntil: "networkidle" });
    expect(await page.getByText("検索条件に一致するカードがありません").filter({ visible: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("admin カード管理", () => {
  it("an admin imports a Shift_JIS CSV through the file picker and sees the cards on /cards", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin`, { waitUntil: "networkidle" });
    await page.getByRole("tab", { name: "カード管理" }).click();
    const submit = page.getByRole("button", { name: "カードを登録" });
    await submit.click();
    await page.getByText("タイトルとCSVファイルを選択してください").waitFor();

    const tag = suffix();
    const csv = `name,rarity,imageUrl\r\nイーブイ${tag},◇◇,\r\n"<b>太字</b>${tag}",★,\r\n`;
    const sjis = encodeShiftJis(csv);
    // The pack is chosen from the existing packs (the import form's chooser; the imported-cards list has its own).
    await page.locator('select[name="title"]').selectOption("palkia");
    await page.getByLabel("CSVファイル").setInputFiles({ name: "cards.csv", mimeType: "text/csv", buffer: sjis });
    await submit.click();
    await page.getByText("2件のカードを登録しました").waitFor();

    // A bad file names its bad line and registers nothing.
    await page.getByLabel("CSVファイル").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(`name,rarity,imageUrl\nよい${tag},◆,\n悪い${tag},???,\n`) });
    await submit.click();
    await page.getByText(/カードの登録に失敗しました: .*3行目: rarity「\?\?\?」は不明です/).waitFor();

    await page.goto(`${baseUrl}/cards?pack=palkia&q=${tag}`, { waitUntil: "networkidle" });
    const names = await page.locator('ul[aria-label="カード一覧"] li').allTextContents();
    expect(names).toHaveLength(2);
    expect(names.join(" ")).toContain(`イーブイ${tag}`);
    // HTML in a card name is shown as text, never rendered.
    expect(names.join(" ")).toContain(`<b>太字</b>${tag}`);
    expect(await page.locator("main b").count()).toBe(0);
    // The rejected file's 422 is expected; nothing else may be logged.
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });
});

/** Shift_JIS bytes of `text` as Excel would save it (Node has a Shift_JIS decoder but no encoder). */
function encodeShiftJis(text: string): Buffer {
  // A reverse table from the WHATWG shift_jis decoder, for the characters the text uses.
  const decoder = new TextDecoder("shift_jis");
  const table = new Map<string, number[]>();
  const wanted = new Set([...text].filter((ch) => ch.charCodeAt(0) > 0x7f));
  for (let lead = 0x81; lead <= 0xfc && table.size < wanted.size; lead++) {
    if (lead >= 0xa0 && lead <= 0xdf) continue;
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      if (trail === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      if (wanted.has(ch) && !table.has(ch)) table.set(ch, [lead, trail]);
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code <= 0x7f) bytes.push(code);
    else {
      const pair = table.get(ch);
      if (!pair) throw new Error(`no Shift_JIS code for ${ch}`);
      bytes.push(...pair);
    }
  }
  return Buffer.from(bytes);
}
