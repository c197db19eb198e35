import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";
import { postOffer, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A signed-in user who has not registered a friend ID yet. */
async function newcomer(): Promise<BrowserContext> {
  const context = await newContext(browser);
  const res = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: { email: `newcomer-${randomBytes(5).toString("hex")}@example.com`, password: "newcomer-pass-2026", name: "はじめて" },
    headers: { origin: baseUrl },
  });
  expect(res.ok()).toBe(true);
  return context;
}

const NOTICE = "トレード募集の作成や交渉には、ポケポケのフレンドIDの登録が必要です。保存すると元の画面に戻ります。";

describe("a new user without a friend ID", () => {
  it("pressing 募集を作成 explains why on the profile, and saving returns to the new-offer form", async () => {
    const context = await newcomer();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/trades`);
    await page.getByRole("link", { name: /募集を作成/ }).first().click();
    await page.waitForURL((url) => url.pathname === "/profile");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/trades/new");
    await page.getByText(NOTICE).waitFor();
    // The notice sits at the friend-ID field, which has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("profile-friend-id-input");
    await page.locator("#profile-friend-id-input").fill("1111-2222-3333-4444");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.waitForURL(`${baseUrl}/trades/new`);
    await page.getByRole("heading", { level: 1, name: "トレード募集を作成" }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("pressing 交渉する goes to the profile and back to the same offer after saving", async () => {
    const owner = await newContext(browser);
    await signUp(owner.request, baseUrl, "オーナー", "5555666677778888");
    const [give, want] = await twoTradeableCards(owner.request, baseUrl);
    const offerId = await postOffer(owner.request, baseUrl, give, want);
    await owner.close();

    const context = await newcomer();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/trades/${offerId}`);
    await page.getByRole("button", { name: "交渉する" }).click();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByText(NOTICE).waitFor();
    await page.locator("#profile-friend-id-input").fill("1111222233334444");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.waitForURL(`${baseUrl}/trades/${offerId}`);
    // Now 交渉する opens the chat room.
    await page.getByRole("button", { name: "交渉する" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/chat/"));
    await context.close();
  });

  it("a deck recipe's prefilled new offer (?want=…) keeps its cards through the friend-ID detour", async () => {
    const context = await newcomer();
    const res = await context.request.get(`${baseUrl}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=1`);
    const [card] = ((await res.json()) as { cards: { id: string; name: string }[] }).cards;
    const page = await context.newPage();
    const target = `/trades/new?want=${encodeURIComponent(`${card.id}*2`)}`;
    await page.goto(`${baseUrl}${target}`);
    await page.waitForURL((url) => url.pathname === "/profile");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(target);
    await page.locator("#profile-friend-id-input").fill("1111222233334444");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.waitForURL((url) => url.pathname === "/trades/new" && url.search === new URL(target, baseUrl).search);
    await page.getByRole("heading", { level: 1, name: "トレード募集を作成" }).waitFor();
    await page.getByText(card.name).first().waitFor();
    await context.close();
  });

  it("a plain visit to the profile shows no notice and saving stays there", async () => {
    const context = await newcomer();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/profile?redirectTo=${encodeURIComponent("//evil.example")}`);
    expect(await page.getByText(NOTICE).count()).toBe(0);
    await page.locator("#profile-friend-id-input").fill("1111222233334444");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("プロフィールを保存しました").waitFor();
    expect(new URL(page.url()).pathname).toBe("/profile");
    await context.close();
  });
});
