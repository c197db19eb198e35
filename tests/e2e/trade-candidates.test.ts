import type { APIRequestContext, Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");
const SHOTS = process.env.TRADE_CANDIDATES_SHOTS_DIR ?? "";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const friendId = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

/** Two copies of `cardId` (one spare over the one kept) and the collection used for trades, wanting missing cards. */
async function collect(request: APIRequestContext, cardId: string): Promise<void> {
  const headers = { origin: baseUrl };
  const counts = await request.post(`${baseUrl}/api/collection/counts`, { data: { changes: [{ cardId, count: 2 }] }, headers });
  if (!counts.ok()) throw new Error(`counts failed: ${counts.status()} ${await counts.text()}`);
  const settings = await request.put(`${baseUrl}/api/collection/settings`, { data: { showProgress: false, useForTrades: true, keepCount: 1, wantMode: "missing", wantSets: null }, headers });
  if (!settings.ok()) throw new Error(`settings failed: ${settings.status()} ${await settings.text()}`);
}

describe("トレード候補 in the browser", () => {
  it("two complementary players see each other with the pair and its cost; one proposes, the room opens and the other is notified; axe clean at 390 and 1280", async () => {
    const mine = await newContext(browser, PHONE);
    const theirs = await newContext(browser, PHONE);
    const page = await mine.newPage();
    const errors = watchConsole(page);
    const tag = Math.random().toString(36).slice(2, 6);
    const me = await signUp(mine.request, baseUrl, `候補A${tag}`, friendId());
    const them = await signUp(theirs.request, baseUrl, `候補B${tag}`, friendId());
    const [myCard, theirCard] = await twoTradeableCards(mine.request, baseUrl);
    await collect(mine.request, myCard);
    await collect(theirs.request, theirCard);

    // From /collection, the link to トレード候補.
    await page.goto(`${baseUrl}/collection`);
    await page.getByRole("link", { name: "トレード候補を見る" }).click();
    await page.waitForURL(/\/collection\/trades$/);
    const candidate = page.getByRole("article", { name: `${them.name}さんとの交換` });
    await expect.poll(() => candidate.isVisible()).toBe(true);
    const pairs = candidate.getByRole("listitem");
    await expect.poll(() => pairs.count()).toBe(1);
    await expect.poll(() => pairs.first().textContent()).toMatch(/◆◆◆◆.*シャインダスト/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/trade-candidates-phone.png`, fullPage: true });

    // The other side sees me too, at desktop width.
    const desktop = await browser.newContext({ storageState: await theirs.storageState(), viewport: { width: 1280, height: 900 } });
    const other = await desktop.newPage();
    const otherErrors = watchConsole(other);
    await other.goto(`${baseUrl}/collection/trades`);
    await expect.poll(() => other.getByRole("article", { name: `${me.name}さんとの交換` }).getByRole("listitem").count()).toBe(1);
    expect(await seriousA11yViolations(other)).toEqual([]);
    if (SHOTS) await other.screenshot({ path: `${SHOTS}/trade-candidates-desktop.png` });

    // One tap proposes the pair: the room opens with the proposal as its first message.
    await candidate.getByRole("button", { name: "この組み合わせで提案する" }).click();
    await page.waitForURL(/\/chat\//);
    await expect.poll(() => page.getByText(/トレード候補から提案します/).first().isVisible()).toBe(true);

    // The partner is notified of the new message from me.
    await other.goto(`${baseUrl}/notifications`);
    await expect.poll(() => other.getByText(new RegExp(`${me.name}さんから新しいメッセージ`)).first().isVisible()).toBe(true);

    expect(errors).toEqual([]);
    expect(otherErrors).toEqual([]);
    await desktop.close();
    await mine.close();
    await theirs.close();
  });

  it("a 譲 何でも可 offer: the partner chooses from the owner's real spare cards at 390×844, and the room names the card to both", async () => {
    const owner = await newContext(browser, PHONE);
    const partner = await newContext(browser, PHONE);
    const tag = Math.random().toString(36).slice(2, 6);
    await signUp(owner.request, baseUrl, `何でもA${tag}`, friendId());
    const partnerPlayer = await signUp(partner.request, baseUrl, `何でもB${tag}`, friendId());
    const found = await owner.request.get(`${baseUrl}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=12`);
    const listed = ((await found.json()) as { cards: { id: string; name: string }[] }).cards;
    // Four cards with four names, so each is told apart by its name alone.
    const [spareA, spareB, kept, wanted] = [...new Map(listed.map((c) => [c.name, c])).values()];
    if (!wanted) throw new Error("the catalogue has fewer than four ◆◆◆◆ names in the pikachu pack");
    const headers = { origin: baseUrl };
    // Two spare (above the one copy kept), one only kept: the list offers the two.
    const counts = await owner.request.post(`${baseUrl}/api/collection/counts`, {
      data: { changes: [{ cardId: spareA.id, count: 2 }, { cardId: spareB.id, count: 3 }, { cardId: kept.id, count: 1 }] },
      headers,
    });
    expect(counts.ok()).toBe(true);
    const settings = await owner.request.put(`${baseUrl}/api/collection/settings`, { data: { showProgress: false, useForTrades: true, keepCount: 1 }, headers });
    expect(settings.ok()).toBe(true);
    const posted = await owner.request.post(`${baseUrl}/api/trades`, { data: { give: [], giveAny: true, want: [{ cardId: wanted.id, count: 1 }], comment: "" }, headers });
    expect(posted.status()).toBe(201);
    const offerId = ((await posted.json()) as { id: string }).id;

    const page = await partner.newPage();
    const errors = watchConsole(page);
    await page.goto(`${baseUrl}/trades/${offerId}`);
    const choice = page.getByTestId("any-card-choice");
    await choice.getByRole("heading", { name: "受け取るカードを選んで交渉する" }).waitFor();
    const options = choice.getByRole("radio");
    expect(await options.count()).toBe(2);
    expect(await choice.getByText(spareA.name, { exact: true }).isVisible()).toBe(true);
    expect(await choice.getByText(spareB.name, { exact: true }).isVisible()).toBe(true);
    expect(await choice.getByText(kept.name, { exact: true }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/any-card-choice-phone.png`, fullPage: true });

    await choice.getByText(spareB.name, { exact: true }).click();
    await choice.getByRole("button", { name: "このカードで交渉する" }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const roomPath = new URL(page.url()).pathname;
    // The partner's room: the card they receive is named, with the system line saying it was chosen.
    await expect.poll(async () => (await page.getByTestId("trade-panel-summary").textContent())?.replace(/\s+/g, " ")).toBe(`渡す: ${wanted.name}◆◆◆◆ ⇄ もらう: ${spareB.name}◆◆◆◆`);
    await page.getByText("あなたが何でも可の側のカードを選びました。").waitFor();
    await page.getByTestId("trade-panel-summary").click();
    await page.getByText("あなたが選んだカード").waitFor();
    await page.getByTestId("room-cards-youReceive").getByText(spareB.name).waitFor();
    // 選び直す offers the same two cards of the owner's collection in the room.
    await page.getByRole("button", { name: "選び直す" }).click();
    const roomChoices = page.getByTestId("any-card-owner-choices").getByRole("button");
    await expect.poll(() => roomChoices.count()).toBe(2);
    expect(await page.getByTestId("any-card-owner-choices").getByRole("button", { name: new RegExp(spareA.name) }).isVisible()).toBe(true);

    // The owner's room names the same card, chosen by the partner.
    const ownerPage = await owner.newPage();
    const ownerErrors = watchConsole(ownerPage);
    await ownerPage.goto(`${baseUrl}${roomPath}`);
    await expect.poll(async () => (await ownerPage.getByTestId("trade-panel-summary").textContent())?.replace(/\s+/g, " ")).toBe(`渡す: ${spareB.name}◆◆◆◆ ⇄ もらう: ${wanted.name}◆◆◆◆`);
    await ownerPage.getByTestId("trade-panel-summary").click();
    await ownerPage.getByText(`${partnerPlayer.name}さんが選んだカード`).waitFor();
    await ownerPage.getByTestId("room-cards-youGive").getByText(spareB.name).waitFor();
    await ownerPage.getByText(`${partnerPlayer.name}さんが何でも可の側のカードを選びました。`).waitFor();
    expect(await seriousA11yViolations(ownerPage)).toEqual([]);

    expect(errors).toEqual([]);
    expect(ownerErrors).toEqual([]);
    await owner.close();
    await partner.close();
  });

  it("says how to opt in when the collection is not used for trades", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    await signUp(context.request, baseUrl, `候補C${Math.random().toString(36).slice(2, 6)}`, friendId());
    await page.goto(`${baseUrl}/collection/trades`);
    await expect.poll(() => page.getByText(/トレードにコレクションを使う」をオンにして保存してください/).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "マイコレクションの設定を開く" }).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});
