import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

const baseUrl = inject("baseUrl");
// The e2e server makes this address an administrator (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
// Screenshots of each page at each width, for a reviewer, when asked for.
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function adminContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  const up = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: ADMIN, headers: { origin: baseUrl } });
  if (!up.ok()) {
    const signIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseUrl } });
    expect(signIn.ok()).toBe(true);
  }
  return context;
}

describe("share buttons and the response record, at phone and desktop widths", () => {
  it("offer, deck recipe and article pages share their own address with a text naming what they are about; the offer and the profile show the owner's replies; axe clean", { timeout: 150_000 }, async () => {
    const admin = await adminContext();
    const article = await admin.request.post(`${baseUrl}/api/admin/articles`, {
      data: { title: "シェアされる記事", category: "news", content: "シェアボタンの確認用の記事です。", isPublic: true },
      headers: { origin: baseUrl },
    });
    expect(article.status()).toBe(201);
    const articleSlug = ((await article.json()) as { slug: string }).slug;
    const deck = await admin.request.post(`${baseUrl}/api/admin/decks`, { data: { name: "シェアされるデッキ", tier: 2, category: "deck-recipe", isPublic: true, publishIllegal: true }, headers: { origin: baseUrl } });
    expect(deck.status()).toBe(201);
    const deckSlug = ((await deck.json()) as { slug: string }).slug;
    await admin.close();

    const ownerSetup = await newContext(browser);
    await signUp(ownerSetup.request, baseUrl, "シェア主", String(Math.floor(Math.random() * 1e16)).padStart(16, "2"));
    const [give, want] = await twoTradeableCards(ownerSetup.request, baseUrl);
    const offerId = await postOffer(ownerSetup.request, baseUrl, give, want);
    const offerCards = (await (await ownerSetup.request.get(`${baseUrl}/api/trades/${offerId}`)).json()) as { offer: { give: { name: string }[]; want: { name: string }[] } };
    const ownerState = await ownerSetup.storageState();
    await ownerSetup.close();

    const pages = [
      // The text of a post names what the page is about, as a player would write it.
      { name: "offer", path: `/trades/${offerId}`, share: true, record: true, text: `【トレード募集】譲:${offerCards.offer.give[0].name} 求:${offerCards.offer.want[0].name}｜トレポケ` },
      { name: "deck", path: `/deck-recipes/${encodeURIComponent(deckSlug)}`, share: true, record: false, text: "【デッキレシピ】シェアされるデッキ（Tier 2）｜トレポケ" },
      { name: "article", path: `/articles/${articleSlug}`, share: true, record: false, text: "【ニュース】シェアされる記事｜トレポケ" },
      { name: "profile", path: "/profile", share: false, record: true, text: null },
    ];
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    for (const [width, options] of [["390", PHONE], ["1280", DESKTOP]] as const) {
      const context = await newContext(browser, { ...options, storageState: ownerState });
      for (const spec of pages) {
        const page = await context.newPage();
        const problems = watchConsole(page);
        await page.goto(`${baseUrl}${spec.path}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        const share = page.locator("[data-share-buttons]");
        if (spec.share) {
          const x = new URL((await share.getByRole("link", { name: /X でポスト/ }).getAttribute("href"))!);
          expect(x.searchParams.get("url"), spec.name).toBe(`${baseUrl}${spec.path}`);
          expect(x.searchParams.get("text"), spec.name).toBe(spec.text);
          const line = new URL((await share.getByRole("link", { name: /LINE で送る/ }).getAttribute("href"))!);
          expect(line.searchParams.get("url"), spec.name).toBe(`${baseUrl}${spec.path}`);
          expect(await share.getByRole("button", { name: "このページのリンクをコピー" }).isVisible()).toBe(true);
        } else {
          expect(await share.count()).toBe(0);
        }
        if (spec.record) {
          // A new player: nothing to count yet, said plainly (no stars).
          expect(await page.getByTestId("response-record").textContent(), spec.name).toContain("30日間の新しい交渉はまだありません");
        }
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${spec.name}-${width}.png`), fullPage: true });
        expect(await seriousA11yViolations(page), `${spec.name} at ${width}`).toEqual([]);
        expect(problems, `${spec.name} at ${width}`).toEqual([]);
        await page.close();
      }
      await context.close();
    }
  });
});
