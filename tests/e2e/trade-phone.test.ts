import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");
const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Player = { context: BrowserContext; page: Page; problems: string[] };

/** Owner A posts (gives `give`, wants `want`), partner B presses 交渉する; both on phones, in the room. */
async function phoneRoom(messages = 0) {
  const players: Player[] = [];
  for (const name of ["アカネ", "ベニオ"]) {
    const context = await newContext(browser, PHONE);
    await signUp(context.request, baseUrl, name, digits());
    const page = await context.newPage();
    players.push({ context, page, problems: watchConsole(page) });
  }
  const [a, b] = players;
  const [give, want] = await twoTradeableCards(a.context.request, baseUrl);
  const offerId = await postOffer(a.context.request, baseUrl, give, want);
  const roomId = await respond(b.context.request, baseUrl, offerId);
  const offer = (await (await a.context.request.get(`${baseUrl}/api/trades/${offerId}`)).json()) as { offer: { give: { name: string }[]; want: { name: string }[] } };
  for (const player of players) {
    await player.page.goto(`${baseUrl}/chat/${roomId}`);
    await player.page.getByText("接続中...").waitFor({ state: "detached" });
  }
  for (let i = 1; i <= messages; i++) {
    const sender = i % 2 ? a : b;
    await sender.page.locator("#chat-input").fill(`メッセージ ${i}`);
    await sender.page.locator("#chat-input").press("Enter");
    await sender.page.locator('[data-pending="true"]').first().waitFor({ state: "detached" });
  }
  return { a, b, offerId, roomId, giveName: offer.offer.give[0].name, wantName: offer.offer.want[0].name };
}

/** Inside the 390×844 viewport, without scrolling. */
async function onFirstScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= 844;
}

describe("a trade room on a phone (390×844)", () => {
  it("shows the newest message and the input on the first screen; the trade panel opens on tap", async () => {
    const { a, b, roomId } = await phoneRoom(8);
    for (const player of [a, b]) {
      // A fresh visit, as from a notification: nothing scrolled yet.
      const page = await player.context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/chat/${roomId}`);
      await page.getByText("接続中...").waitFor({ state: "detached" });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await onFirstScreen(page, "#chat-input")).toBe(true);
      expect(await onFirstScreen(page, 'form:has(#chat-input) button[type="submit"]')).toBe(true);
      const newest = page.locator('[data-testid="chat-messages"] li[data-kind="text"]').last();
      expect(await newest.textContent()).toContain("メッセージ 8");
      const newestBox = await newest.boundingBox();
      const logBox = await page.getByRole("log").boundingBox();
      // The newest message is inside the visible part of the message list, and the list on screen.
      expect(newestBox!.y + newestBox!.height).toBeLessThanOrEqual(logBox!.y + logBox!.height + 1);
      expect(logBox!.y + logBox!.height).toBeLessThanOrEqual(844);
      // The steps are folded away behind the two-line summary, and open on tap.
      const toggle = page.getByTestId("trade-panel-toggle");
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(await page.getByRole("button", { name: /^条件合意/ }).isVisible()).toBe(false);
      expect(await toggle.textContent()).toContain("次：条件合意");
      await toggle.click();
      expect(await toggle.getAttribute("aria-expanded")).toBe("true");
      expect(await page.getByRole("button", { name: /^条件合意/ }).isVisible()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    }
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
    // Two players, eight messages and two fresh visits: longer than one page on a busy machine.
  }, 150_000);

  it("labels who gives what from each reader's side", async () => {
    const { a, b, giveName, wantName } = await phoneRoom();
    // A posted "give ${giveName}, want ${wantName}": A gives giveName, B gives wantName.
    const summary = (page: Page) => page.getByTestId("trade-panel-summary").textContent();
    expect(await summary(a.page)).toMatch(new RegExp(`^渡す: ${giveName}.* ⇄ もらう: ${wantName}`));
    expect(await summary(b.page)).toMatch(new RegExp(`^渡す: ${wantName}.* ⇄ もらう: ${giveName}`));
    // Each side has a line of its own on the phone, so the もらう side is on screen under 渡す (a long
    // line of several cards may still end in "…"; the panel opens on tap).
    for (const [player, gets] of [
      [a, wantName],
      [b, giveName],
    ] as const) {
      const lines = await player.page.getByTestId("trade-panel-summary").locator(":scope > span").all();
      expect(lines).toHaveLength(2);
      const [giveBox, getBox, toggleBox] = [await lines[0].boundingBox(), await lines[1].boundingBox(), await player.page.getByTestId("trade-panel-toggle").boundingBox()];
      expect(await lines[1].isVisible()).toBe(true);
      expect(await lines[1].textContent()).toContain(`⇄ もらう: ${gets}`);
      expect(getBox!.y).toBeGreaterThanOrEqual(giveBox!.y + giveBox!.height - 1);
      expect(getBox!.y + getBox!.height).toBeLessThanOrEqual(toggleBox!.y + toggleBox!.height);
      expect(getBox!.x + getBox!.width).toBeLessThanOrEqual(toggleBox!.x + toggleBox!.width);
    }
    for (const [player, gives, gets] of [
      [a, giveName, wantName],
      [b, wantName, giveName],
    ] as const) {
      await player.page.getByTestId("trade-panel-toggle").click();
      const mine = player.page.getByTestId("room-cards-youGive");
      const theirs = player.page.getByTestId("room-cards-youReceive");
      expect(await mine.getByRole("heading").textContent()).toBe("あなたが渡す");
      expect(await mine.textContent()).toContain(gives);
      expect(await theirs.getByRole("heading").textContent()).toBe("相手から受け取る");
      expect(await theirs.textContent()).toContain(gets);
      // Each chip names the card's set and number: the same name is printed in several sets.
      expect(await mine.locator("li").first().textContent()).toMatch(/[A-Z][0-9A-Za-z-]* \d{3}/);
    }
    // The room list on the profile speaks from each side too.
    for (const [player, gives] of [
      [a, giveName],
      [b, wantName],
    ] as const) {
      await player.page.goto(`${baseUrl}/profile`);
      expect(await player.page.getByTestId("chat-rooms").locator("li").first().textContent()).toContain(`あなたが渡す: ${gives}`);
    }
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

describe("the offer page after the trade", () => {
  it("a completed offer offers no 交渉する: the partner gets back to the room, others read why", async () => {
    const { a, b, offerId, roomId } = await phoneRoom();
    const step = async (page: Page, name: string) => {
      const toggle = page.getByTestId("trade-panel-toggle");
      if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
      await page.getByRole("button", { name: new RegExp(`^${name}`) }).and(page.locator(":enabled")).click();
    };
    await step(a.page, "条件合意");
    await step(b.page, "条件合意");
    await step(b.page, "フレンド申請済み");
    await step(a.page, "ゲーム内でトレード申請済み");
    await step(a.page, "取引完了");
    await step(b.page, "取引完了");
    await b.page.getByText("トレードが成立しました。", { exact: true }).waitFor();

    await b.page.goto(`${baseUrl}/trades/${offerId}`);
    expect(await b.page.getByRole("button", { name: "交渉する" }).count()).toBe(0);
    expect(await b.page.getByTestId("offer-not-open").textContent()).toContain("この募集はトレードが成立したため、受け付けていません。");
    expect(await b.page.getByRole("link", { name: "チャットを開く" }).getAttribute("href")).toBe(`/chat/${roomId}`);

    const stranger = await newContext(browser, PHONE);
    await signUp(stranger.request, baseUrl, "カスミ", digits());
    const page = await stranger.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/trades/${offerId}`);
    expect(await page.getByRole("button", { name: "交渉する" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "チャットを開く" }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await stranger.close();
    await a.context.close();
    await b.context.close();
  });

  it("募集を投稿しました shows to the poster once, and to nobody who opens the same link", async () => {
    const { a, b, offerId } = await phoneRoom();
    await a.page.goto(`${baseUrl}/trades/${offerId}?done=posted`);
    await a.page.getByRole("status").filter({ hasText: "募集を投稿しました" }).waitFor();
    await a.page.waitForURL(`${baseUrl}/trades/${offerId}`);
    await a.page.reload();
    expect(await a.page.getByText("募集を投稿しました").count()).toBe(0);
    await b.page.goto(`${baseUrl}/trades/${offerId}?done=posted`);
    await b.page.getByRole("heading", { level: 1 }).waitFor();
    expect(await b.page.getByText("募集を投稿しました").count()).toBe(0);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

describe("trust in the room", () => {
  it("quick replies fill the input and send; each scam warning shows at its step", async () => {
    const { a, b } = await phoneRoom();
    await b.page.getByTestId("quick-replies").getByRole("button", { name: "フレンド申請を送りました" }).click();
    expect(await b.page.locator("#chat-input").inputValue()).toBe("フレンド申請を送りました");
    // Still editable before it goes.
    await b.page.locator("#chat-input").press("End");
    await b.page.locator("#chat-input").pressSequentially("！");
    await b.page.getByRole("button", { name: "送信" }).click();
    await a.page.locator('[data-testid="chat-messages"] li[data-kind="text"]').filter({ hasText: "フレンド申請を送りました！" }).waitFor();
    expect(await b.page.locator("#chat-input").inputValue()).toBe("");

    const open = async (page: Page) => {
      const toggle = page.getByTestId("trade-panel-toggle");
      if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
    };
    await open(a.page);
    await open(b.page);
    // Before agreeing: the one-sided おすそわけ swap.
    for (const { page } of [a, b]) {
      expect(await page.getByTestId("scam-warning-agree").textContent()).toContain("おすそわけで一方的にカードを渡さないでください");
      expect(await page.getByTestId("scam-warning-gameTrade").count()).toBe(0);
    }
    const step = (page: Page, name: string) => page.getByRole("button", { name: new RegExp(`^${name}`) }).and(page.locator(":enabled")).click();
    await step(a.page, "条件合意");
    await step(b.page, "条件合意");
    // Before sending the in-game trade: 三角交換 through another account.
    for (const { page } of [a, b]) {
      await page.getByTestId("scam-warning-gameTrade").waitFor();
      expect(await page.getByTestId("scam-warning-gameTrade").textContent()).toContain("三角交換");
      expect(await page.getByTestId("scam-warning-agree").count()).toBe(0);
    }
    expect(await seriousA11yViolations(b.page)).toEqual([]);
    await step(b.page, "フレンド申請済み");
    await step(a.page, "ゲーム内でトレード申請済み");
    await a.page.getByTestId("scam-warning-gameTrade").waitFor({ state: "detached" });

    // A report can name the scam it was.
    const message = a.page.locator('[data-testid="chat-messages"] li[data-kind="text"]').filter({ hasText: "フレンド申請を送りました！" });
    await message.getByRole("button", { name: "通報" }).click();
    await message.getByLabel("よくある理由").selectOption({ label: "三角交換・別アカウントへの誘導" });
    expect(await message.getByLabel(/通報の理由/).inputValue()).toBe("三角交換・別アカウントへの誘導");
    // The offer form links to the rules page.
    await b.page.goto(`${baseUrl}/trades/new`);
    expect(await b.page.getByRole("link", { name: "トレードできるカードのルール" }).getAttribute("href")).toBe("/trade-rules");
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

// The e2e server makes this address an administrator (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };

describe("trade rules", () => {
  it("an admin announces a change in トレードルール; the public page lists it; both are accessible at phone and desktop widths", async () => {
    const context = await newContext(browser);
    const up = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: ADMIN, headers: { origin: baseUrl } });
    if (!up.ok()) {
      const signIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseUrl } });
      expect(signIn.ok()).toBe(true);
    }
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin?tab=trade-rules`);
    await page.getByRole("tab", { name: "トレードルール" }).waitFor();
    // A note is required: the form says so at the field and sends nothing.
    await page.getByLabel("対象の種類").selectOption("rarity");
    await page.getByLabel("対象", { exact: true }).selectOption("👑");
    await page.getByLabel("トレード", { exact: true }).selectOption("yes");
    await page.getByLabel("適用日時（日本時間）").fill("2099-12-01T10:00");
    await page.getByRole("button", { name: "追加する" }).click();
    await page.getByText("メモを入力してください").waitFor();
    await page.getByLabel("メモ（理由・出典）").fill("e2e: 遠い未来の予定");
    await page.getByRole("button", { name: "追加する" }).click();
    await page.getByRole("status").filter({ hasText: "ルールを追加しました" }).waitFor();
    await page.getByTestId("rules-upcoming").filter({ hasText: "2099/12/01 10:00からトレードできる" }).first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousA11yViolations(page)).toEqual([]);

    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${baseUrl}/trade-rules`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("トレードのルール");
      expect(await page.locator('[data-rarity="☆☆"]').textContent()).toContain("トレードできる");
      expect(await page.locator('[data-rarity="☆☆☆"]').textContent()).toContain("トレードできない");
      expect(await page.getByTestId("rules-upcoming").textContent()).toContain("2099/12/01 10:00からトレードできる");
      expect(await page.getByTestId("rules-history").textContent()).toContain("e2e: 遠い未来の予定");
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("sharing an offer", () => {
  it("links to X and LINE without their scripts and copies the offer's link, saying コピーしました", async () => {
    const { a, b, offerId } = await phoneRoom();
    await b.context.close();
    const context = await newContext(browser, PHONE);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const page = await context.newPage();
    const problems = watchConsole(page);
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(baseUrl)) foreign.push(r.url());
    });
    await page.goto(`${baseUrl}/trades/${offerId}`);
    const share = page.locator("[data-share-buttons]");
    const pageUrl = `${baseUrl}/trades/${offerId}`;
    const x = new URL((await share.getByRole("link", { name: /X でポスト/ }).getAttribute("href"))!);
    expect(`${x.origin}${x.pathname}`).toBe("https://x.com/intent/tweet");
    expect(x.searchParams.get("url")).toBe(pageUrl);
    expect(x.searchParams.get("text")).toContain("トレード募集");
    const line = new URL((await share.getByRole("link", { name: /LINE で送る/ }).getAttribute("href"))!);
    expect(line.searchParams.get("url")).toBe(pageUrl);
    await share.getByRole("button", { name: "このページのリンクをコピー" }).click();
    await share.getByRole("status").filter({ hasText: "コピーしました" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pageUrl);
    expect(foreign).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
    await a.context.close();
  });
});

describe("reporting an offer", () => {
  it("offers the chat's common reasons; the pick fills the reason, which stays editable and is sent", async () => {
    const { a, b, offerId } = await phoneRoom();
    await b.page.goto(`${baseUrl}/trades/${offerId}`);
    await b.page.getByText("通報する", { exact: true }).click();
    const options = await b.page.getByLabel("よくある理由").locator("option").allTextContents();
    expect(options).toEqual(["選んでください", "おすそわけ・先渡しの持ち逃げ", "三角交換・別アカウントへの誘導", "暴言・迷惑行為", "現金・アカウントの売買", "スパム・宣伝", "偽のフレンドID・存在しないID"]);
    await b.page.getByLabel("よくある理由").selectOption({ label: "おすそわけ・先渡しの持ち逃げ" });
    const reason = b.page.locator("#report-reason");
    expect(await reason.inputValue()).toBe("おすそわけ・先渡しの持ち逃げ");
    await reason.press("End");
    await reason.pressSequentially("（チャットで先に送ってと言われた）");
    expect(await seriousA11yViolations(b.page)).toEqual([]);
    await b.page.getByRole("button", { name: "通報を送信" }).click();
    await b.page.getByRole("status").filter({ hasText: "通報を受け付けました" }).waitFor();
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

describe("the response record", () => {
  it("counts the owner's answer in the room: 返信率 and reply time on the offer page, no stars", async () => {
    const { a, b, offerId } = await phoneRoom(2);
    await b.page.goto(`${baseUrl}/trades/${offerId}`);
    const record = await b.page.getByTestId("response-record").textContent();
    expect(record).toContain("返信率 100%（新しい交渉 1件）");
    expect(record).toContain("返信まで 通常約1分");
    expect(record).not.toMatch(/★|☆/);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
