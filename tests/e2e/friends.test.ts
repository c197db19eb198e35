import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";

const baseUrl = inject("baseUrl");
const digits = () => String(Math.floor(Math.random() * 1e16)).padStart(16, "1");
const dashed = (id: string) => id.replace(/(\d{4})(?=\d)/g, "$1-");
const DESKTOP = { viewport: { width: 1280, height: 900 } };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const bellCount = (page: Page) => page.getByTestId("notification-count").locator('[aria-hidden="true"]');

/** Fills and sends the post form: purposes by label, a comment. */
async function post(page: Page, purposes: string[], comment: string) {
  const form = page.getByTestId("friend-post-form");
  for (const purpose of purposes) await form.getByLabel(purpose, { exact: true }).check();
  await form.getByLabel("ひとこと（100文字以内）").fill(comment);
  await form.getByRole("button", { name: "募集する" }).click();
  await page.getByTestId("friends-done").filter({ hasText: "募集しました" }).waitFor();
}

describe("フレンド募集 in the browser", () => {
  it("A posts on a phone; B finds it by purpose on a desktop, copies the ID and says 申請しました; A hears it live and sees B listed, then closes", async () => {
    const aContext = await newContext(browser, PHONE);
    const bContext = await newContext(browser, DESKTOP);
    await bContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const aId = digits();
    const bId = digits();
    await signUp(aContext.request, baseUrl, "フレンド募集A", aId);
    await signUp(bContext.request, baseUrl, "申請するB", bId);

    const a = await aContext.newPage();
    const aProblems = watchConsole(a);
    await a.goto(`${baseUrl}/friends`);
    await a.getByRole("heading", { level: 1, name: "フレンド募集" }).waitFor();
    expect(await seriousA11yViolations(a)).toEqual([]);
    await post(a, ["ゲットチャレンジ", "バトル"], "毎日ログインしています");
    const own = a.getByTestId("own-friend-post");
    await own.getByTestId("friend-post").getByText("毎日ログインしています").waitFor();
    expect(await own.getByTestId("friend-post-id").textContent()).toBe(dashed(aId));
    await own.getByText("まだ申請はありません。").waitFor();
    // 上げる waits 3 hours after posting: the button says when.
    await expect(own.getByRole("button", { name: "上げる", exact: true }).isDisabled()).resolves.toBe(true);
    await own.getByText(/から上げられます$/).waitFor();
    expect(await seriousA11yViolations(a)).toEqual([]);

    // B, on a desktop, filters by ゲットチャレンジ and finds A's post.
    const b = await bContext.newPage();
    const bProblems = watchConsole(b);
    await b.goto(`${baseUrl}/friends`);
    expect(await seriousA11yViolations(b)).toEqual([]);
    await b.getByRole("combobox", { name: "目的" }).selectOption({ label: "ゲットチャレンジ" });
    await b.getByRole("button", { name: "絞り込む" }).click();
    await b.waitForURL((url) => url.searchParams.get("purpose") === "challenge");
    const aPost = b.getByTestId("friend-post").filter({ hasText: "フレンド募集A" });
    await aPost.waitFor();
    expect(await aPost.getByTestId("friend-post-id").textContent()).toBe(dashed(aId));
    await aPost.getByRole("button", { name: "フレンド募集AさんのフレンドIDをコピー" }).click();
    await aPost.getByText("コピーしました").waitFor();
    expect(await b.evaluate(() => navigator.clipboard.readText())).toBe(aId);

    // A is on the board (phone) when B says 申請しました: A's bell rises with no navigation.
    await a.goto(`${baseUrl}/friends`);
    await a.getByRole("heading", { level: 1, name: "フレンド募集" }).waitFor();
    const before = Number((await bellCount(a).count()) ? await bellCount(a).textContent() : "0");
    await aPost.getByRole("button", { name: "フレンド募集Aさんに申請しました" }).click();
    await b.getByTestId("friends-done").filter({ hasText: "申請したことを投稿者に伝えました" }).waitFor();
    expect(new URL(b.url()).searchParams.get("purpose")).toBe("challenge");
    await expect(b.getByTestId("friend-post").filter({ hasText: "フレンド募集A" }).getByRole("button", { name: "フレンド募集Aさんに申請しました" }).getAttribute("aria-pressed")).resolves.toBe("true");
    await expect.poll(() => bellCount(a).textContent()).toBe(String(before + 1));

    // Pressing again changes nothing: still one applicant, one notification.
    await b.getByTestId("friend-post").filter({ hasText: "フレンド募集A" }).getByRole("button", { name: "フレンド募集Aさんに申請しました" }).click();
    await b.getByTestId("friends-done").waitFor();

    await a.goto(`${baseUrl}/notifications`);
    const notice = a.getByText(`申請するBさんがフレンド募集を見て申請しました（フレンドID ${dashed(bId)}）`);
    await expect(notice.count()).resolves.toBe(1);
    await a.goto(`${baseUrl}/friends`);
    const applicants = a.getByTestId("friend-applicants");
    await applicants.getByText("申請するB").waitFor();
    await expect(applicants.locator("li").count()).resolves.toBe(1);
    await expect(applicants.getByText(dashed(bId)).count()).resolves.toBe(1);

    // A closes the post: it leaves B's board.
    await a.getByRole("button", { name: "募集を締め切る" }).click();
    await a.getByTestId("friends-done").filter({ hasText: "募集を締め切りました" }).waitFor();
    await a.getByTestId("friend-post-form").waitFor();
    await b.goto(`${baseUrl}/friends`);
    await b.getByRole("heading", { level: 1, name: "フレンド募集" }).waitFor();
    await expect(b.getByTestId("friend-post").filter({ hasText: "フレンド募集A" }).count()).resolves.toBe(0);

    expect(aProblems).toEqual([]);
    expect(bProblems).toEqual([]);
    await aContext.close();
    await bContext.close();
  });

  it("signed out, the board is readable and asks to log in to post; the header links it", async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.getByRole("navigation", { name: "メインメニュー" }).getByRole("link", { name: "フレンド募集" }).click();
    await page.waitForURL(`${baseUrl}/friends`);
    await page.getByText("募集するにはログインしてください。").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("a reader who keeps a collection sees their trade pairs with a poster who keeps one, and the link shows that poster first", async () => {
    const aContext = await newContext(browser, DESKTOP);
    const bContext = await newContext(browser, PHONE);
    const poster = await signUp(aContext.request, baseUrl, "コレクターA", digits());
    await signUp(bContext.request, baseUrl, "コレクターB", digits());
    // A has a spare of one card and misses the other; B the other way round.
    const [first, second] = await twoTradeableCards(aContext.request, baseUrl);
    const keep = async (context: typeof aContext, spare: string) => {
      const headers = { origin: baseUrl };
      expect((await context.request.post(`${baseUrl}/api/collection/counts`, { data: { changes: [{ cardId: spare, count: 2 }] }, headers })).ok()).toBe(true);
      expect((await context.request.put(`${baseUrl}/api/collection/settings`, { data: { showProgress: false, useForTrades: true, wantMode: "missing" }, headers })).ok()).toBe(true);
    };
    await keep(aContext, first);
    await keep(bContext, second);
    const a = await aContext.newPage();
    await a.goto(`${baseUrl}/friends`);
    await post(a, ["トレード"], "コレクションで交換しましょう");

    const b = await bContext.newPage();
    const problems = watchConsole(b);
    await b.goto(`${baseUrl}/friends`);
    const card = b.getByTestId("friend-post").filter({ hasText: "コレクションで交換しましょう" });
    const link = card.getByTestId("friend-post-candidates");
    expect(await link.textContent()).toBe("あなたとのトレード候補 1組");
    expect(await seriousA11yViolations(b)).toEqual([]);
    await link.click();
    await b.waitForURL(`${baseUrl}/collection/trades?with=${poster.id}`);
    await b.getByRole("heading", { level: 1, name: "トレード候補" }).waitFor();
    // That poster's pairs come first, before the ranked list.
    const shown = b.getByRole("article").first();
    expect(await shown.getAttribute("aria-labelledby")).toBe(`candidate-${poster.id}`);
    expect(await shown.getByRole("heading", { level: 2 }).textContent()).toBe("コレクターAさんとの交換");
    expect(problems).toEqual([]);
    await aContext.close();
    await bContext.close();
  });
});

// Raising needs 3 hours and expiry 24: the test moves the post's clock in the database, so it runs
// against its own server on PostgreSQL (the shared server's embedded database is its process's alone).
const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("フレンド募集 over time (PostgreSQL)", () => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let sql: pg.Client;
  beforeAll(async () => {
    const database = await createSharedDatabase(databaseUrl!, "torepoke_friends_e2e");
    drop = database.drop;
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: "warn" });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await server?.stop();
    await drop?.();
  });

  it("A raises the post after 3 hours and then closes it; an expired post leaves the board and the sitemap's lastmod", async () => {
    const aContext = await newContext(browser, PHONE);
    const a = await aContext.newPage();
    await signUp(aContext.request, server.url, "上げるA", digits());
    await a.goto(`${server.url}/friends`);
    await post(a, ["トレード"], "上げる前");
    await sql.query("update friend_posts set raised_at = raised_at - interval '4 hours', expires_at = expires_at - interval '4 hours'");
    const other = await newContext(browser, DESKTOP);
    await signUp(other.request, server.url, "あとから", digits());
    const o = await other.newPage();
    await o.goto(`${server.url}/friends`);
    await post(o, ["バトル"], "あとから投稿");
    const order = async () => (await o.getByRole("region", { name: "募集一覧" }).getByTestId("friend-post").locator("h3").allTextContents()).filter((n) => n === "上げるA" || n === "あとから");
    await o.goto(`${server.url}/friends`);
    expect(await order()).toEqual(["あとから", "上げるA"]);

    await a.goto(`${server.url}/friends`);
    await a.getByRole("button", { name: "上げる", exact: true }).click();
    await a.getByTestId("friends-done").filter({ hasText: "募集を上げました" }).waitFor();
    await expect(a.getByRole("button", { name: "上げる", exact: true }).isDisabled()).resolves.toBe(true);
    await o.goto(`${server.url}/friends`);
    expect(await order()).toEqual(["上げるA", "あとから"]);
    await a.getByRole("button", { name: "募集を締め切る" }).click();
    await a.getByTestId("friends-done").filter({ hasText: "募集を締め切りました" }).waitFor();
    await o.goto(`${server.url}/friends`);
    expect(await order()).toEqual(["あとから"]);

    // The other post runs out: gone from the board and from the sitemap's lastmod.
    const sitemap = async () => (await (await fetch(`${server.url}/sitemaps/friends-1.xml`)).text()).trim();
    expect(await sitemap()).toMatch(/<loc>[^<]*\/friends<\/loc><lastmod>/);
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).toContain("friends-1.xml");
    await sql.query("update friend_posts set raised_at = raised_at - interval '25 hours', expires_at = expires_at - interval '25 hours' where status = 'open'");
    await o.goto(`${server.url}/friends`);
    await o.getByText("条件に合う募集はありません。").waitFor();
    expect(await sitemap()).not.toContain("/friends</loc>");
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).not.toContain("friends-1.xml");
    await aContext.close();
    await other.close();
  });
});
