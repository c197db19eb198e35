import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";

// A browser that does not say it is headless or automated: the test browser itself is headless
// Chromium, which the collection rightly refuses to count.
const DESKTOP_CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const DESKTOP_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0";
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };

// The suite's server: every other browser test is headless (never counted), and this test's
// trader is the only one who came from social media, so the figures below are this test's alone.
const baseUrl = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function humanContext(userAgent: string, extraHTTPHeaders?: Record<string, string>): Promise<BrowserContext> {
  const context = await newContext(browser, { userAgent, extraHTTPHeaders });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }));
  return context;
}

/** Waits until the page has sent its page view for the current URL (the endpoint answered). */
function pageViewSent(page: Page, path: string) {
  return page.waitForResponse((res) => res.url().endsWith("/api/event") && (res.request().postData() ?? "").includes(`"u":"${path}`) && res.status() === 204);
}

describe("analytics: from an article to a completed trade, read in the admin", () => {
  it("counts the visit, its source, the article that brought a trader and the funnel; skips headless and GPC visitors", { timeout: 240_000 }, async () => {
    const admin = await newContext(browser);
    const up = await admin.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: ADMIN, headers: { origin: baseUrl } });
    if (!up.ok()) {
      const signIn = await admin.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseUrl } });
      expect(signIn.ok()).toBe(true);
    }
    const created = await admin.request.post(`${baseUrl}/api/admin/articles`, {
      data: { title: "交換で揃えるデッキ", category: "guide", content: "足りないカードはトレードで集めましょう。\n\n[トレード掲示板へ](/trades)\n", isPublic: true },
      headers: { origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    const slug = ((await created.json()) as { slug: string }).slug;
    const articlePath = `/articles/${slug}`;

    // A signed-out visitor comes from X, reads the article and follows its link to the board.
    const visitor = await humanContext(DESKTOP_CHROME);
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    const firstView = pageViewSent(page, articlePath);
    await page.goto(`${baseUrl}${articlePath}?utm_source=x&utm_medium=social`, { referer: "https://x.com/" });
    await firstView;
    // Links in articles open in a new tab of the same browser: the same visitor.
    const [boardPage] = await Promise.all([visitor.waitForEvent("page"), page.getByRole("link", { name: "トレード掲示板へ" }).click()]);
    const boardProblems = watchConsole(boardPage);
    await pageViewSent(boardPage, "/trades");
    expect(new URL(boardPage.url()).pathname).toBe("/trades");

    // They sign up (same browser), look at the new-offer page and post an offer.
    const trader = await signUp(visitor.request, baseUrl, "ヨミビト", "1234567812345678");
    const newOfferView = pageViewSent(page, "/trades/new");
    await page.goto(`${baseUrl}/trades/new`);
    await newOfferView;
    const [give, want] = await twoTradeableCards(visitor.request, baseUrl);
    const offerId = await postOffer(visitor.request, baseUrl, give, want);
    expect(trader.id).toBeTruthy();

    // Another player completes the trade with them (a headless browser: not a counted visitor).
    const other = await newContext(browser);
    await signUp(other.request, baseUrl, "トモダチ", "8765432187654321");
    const roomId = await respond(other.request, baseUrl, offerId);
    const [aPage, bPage] = await Promise.all(
      [visitor, other].map(async (context) => {
        const p = await context.newPage();
        await p.goto(`${baseUrl}/chat/${roomId}`);
        await p.getByText("接続中...").waitFor({ state: "detached" });
        return p;
      }),
    );
    const button = (p: Page, name: string) => p.getByRole("button", { name: new RegExp(`^${name}`) }).and(p.locator(":enabled"));
    await button(aPage, "条件合意").click();
    await button(bPage, "条件合意").click();
    await button(bPage, "フレンド申請済み").click();
    await button(aPage, "ゲーム内でトレード申請済み").click();
    await button(aPage, "取引完了").click();
    await button(bPage, "取引完了").click();
    await bPage.getByText("トレードが成立しました。", { exact: true }).waitFor();

    // A headless Chrome and a Sec-GPC: 1 browser read the article too: neither is counted.
    const headless = await newContext(browser);
    const headlessPage = await headless.newPage();
    const headlessView = headlessPage.waitForResponse((res) => res.url().endsWith("/api/event"));
    await headlessPage.goto(`${baseUrl}${articlePath}`);
    expect((await headlessView).status()).toBe(204);
    const private_ = await humanContext(DESKTOP_FIREFOX, { "Sec-GPC": "1" });
    const privatePage = await private_.newPage();
    const privateView = pageViewSent(privatePage, articlePath);
    await privatePage.goto(`${baseUrl}${articlePath}`);
    await privateView;

    // The owner opens アクセス解析 and computes now until every hit above has been counted.
    const adminPage = await admin.newPage();
    const adminProblems = watchConsole(adminPage);
    await adminPage.goto(`${baseUrl}/admin?tab=analytics&range=today&channel=social`);
    expect(await adminPage.getByRole("tab", { name: "アクセス解析" }).getAttribute("aria-selected")).toBe("true");
    const funnelCompleted = adminPage.getByTestId("funnel-completed-count");
    // Hits are counted just after their 204: a few rounds may pass before the last one is in.
    let seen = "";
    for (let round = 0; round < 20; round++) {
      await Promise.all([adminPage.waitForNavigation(), adminPage.getByRole("button", { name: "今すぐ集計" }).click()]);
      await adminPage.getByTestId("analytics-headline").waitFor();
      seen = `${await funnelCompleted.textContent()} ${await adminPage.getByTestId("analytics-content").textContent()}`;
      if (seen.startsWith("1 ") && seen.includes(articlePath)) break;
    }
    expect(seen).toContain(articlePath);

    expect(await adminPage.getByTestId("headline-visitors").locator("dd").first().textContent()).toBe("1");
    const sources = (await adminPage.getByTestId("analytics-source-hosts").textContent()) ?? "";
    expect(sources).toContain("x.com");
    expect((await adminPage.getByTestId("analytics-channels").textContent()) ?? "").toContain("SNS");
    expect((await adminPage.getByTestId("analytics-utm-source").textContent()) ?? "").toContain("x");
    const contentRow = adminPage.getByTestId("analytics-content-table").locator("tr", { hasText: articlePath });
    // The article by its title, its path under it.
    expect(await contentRow.locator("td").allTextContents()).toEqual(["記事", `交換で揃えるデッキ${articlePath}`, "1", "1", "1"]);
    expect(await contentRow.getByTestId("analytics-content-title").textContent()).toBe("交換で揃えるデッキ");
    for (const step of ["posted", "matched", "room_opened", "agreed", "completed"]) {
      expect(await adminPage.getByTestId(`funnel-${step}-count`).textContent(), step).toBe("1");
    }
    // The funnel above is filtered by the trader's first source of the day; "all" has at least as many.
    expect(await adminPage.getByLabel("最初の参照元チャネル").inputValue()).toBe("social");
    await adminPage.getByLabel("最初の参照元チャネル").selectOption("");
    await adminPage.getByTestId("analytics-funnel").getByRole("button", { name: "表示" }).click();
    await adminPage.waitForURL((url) => url.searchParams.get("channel") === "", { waitUntil: "commit" });
    await adminPage.getByLabel("最初の参照元チャネル").and(adminPage.locator(":enabled")).waitFor();
    expect(Number(await adminPage.getByTestId("funnel-posted-count").textContent())).toBeGreaterThanOrEqual(1);
    expect((await adminPage.getByTestId("analytics-health").textContent()) ?? "").toContain("ボット除外");
    expect(await seriousA11yViolations(adminPage)).toEqual([]);

    // CSV export of the same period.
    const csv = await admin.request.get(`${baseUrl}/api/admin/analytics/export?range=today`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect(await csv.text()).toContain(`content,${articlePath},1,`);

    // Metrics are never on the public port.
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(404);

    expect(problems).toEqual([]);
    expect(boardProblems).toEqual([]);
    expect(adminProblems).toEqual([]);
    for (const context of [admin, visitor, other, headless, private_]) await context.close();
  });

  it("refuses hits from another origin and bad bodies with a JSON error", async () => {
    const res = await fetch(`${baseUrl}/api/event`, { method: "POST", body: '{"t":"pv","u":"/"}', headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    const noOrigin = await fetch(`${baseUrl}/api/event`, { method: "POST", body: '{"t":"pv","u":"/"}' });
    expect(noOrigin.status).toBe(403);
    expect(((await noOrigin.json()) as { code: string }).code).toBe("forbidden_origin");
    const bad = await fetch(`${baseUrl}/api/event`, { method: "POST", body: "nope", headers: { origin: baseUrl } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("invalid");
    const big = await fetch(`${baseUrl}/api/event`, { method: "POST", body: "x".repeat(10_000), headers: { origin: baseUrl } });
    expect(big.status).toBe(413);
  });
});
