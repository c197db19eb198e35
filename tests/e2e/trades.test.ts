import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Player = { context: BrowserContext; page: Page; name: string; problems: string[] };

/** Signs up through the auth API (the sign-up form has its own tests) and sets a friend ID on /profile. */
async function player(prefix: string, options: Parameters<Browser["newContext"]>[0] = {}): Promise<Player> {
  const tag = randomBytes(3).toString("hex");
  const name = `${prefix}${tag}`;
  const context = await newContext(browser, options);
  const signup = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: { name, email: `trader-${tag}-${Date.now()}@example.com`, password: "trade-pass-1234" },
    headers: { Origin: baseUrl },
  });
  expect(signup.status()).toBe(200);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${baseUrl}/profile`);
  await page.fill("#profile-friend-id-input", `１２３４-５６７８-９０１２-${Math.floor(1000 + Math.random() * 8999)}`);
  await page.locator("form:has(#profile-friend-id-input) button[type=submit]").click();
  await page.getByTestId("profile-friend-id").waitFor();
  return { context, page, name, problems };
}

/** Chooses the ◆ (one diamond) print of a card in a trade picker combobox. */
/**
 * The print each search picks where two players must name the same card: the picker lists a name's
 * prints pack by pack under the trade rules of the moment, and the first ◆ of a list shown while
 * the other combobox's list is still open is not always the card typed.
 */
const PRINTS: Record<string, string> = { ふしぎだね: "A1 001", ひとかげ: "A1 033", ぜにがめ: "A1 053" };

async function pickCard(page: Page, label: string, query: string) {
  const box = page.getByRole("combobox", { name: label });
  await box.fill(query);
  const print = PRINTS[query];
  const options = page.locator("[role=listbox]:visible [role=option]").filter({ has: page.locator('[data-rarity="◆"]') });
  const option = (print ? options.filter({ hasText: print }) : options).first();
  await option.waitFor();
  await option.click();
}

async function postOffer(page: Page, give: string, want: string, comment: string): Promise<string> {
  await page.goto(`${baseUrl}/trades/new`);
  await pickCard(page, "譲れるカードを追加", give);
  await pickCard(page, "欲しいカードを追加", want);
  await page.fill("#offer-comment", comment);
  await expect(page.getByRole("heading", { name: "交換できる組み合わせ" }).isVisible()).resolves.toBe(true);
  await page.getByRole("button", { name: "募集を投稿する" }).click();
  await page.waitForURL(/\/trades\/[0-9a-f-]{36}\?done=posted$/);
  await page.getByRole("status").filter({ hasText: "募集を投稿しました" }).waitFor();
  return new URL(page.url()).pathname.split("/").pop()!;
}

describe("trade board", () => {
  it("A posts an offer; B finds it by a card filter and through マッチ, responds and lands in the chat room", async () => {
    const alice = await player("アリス");
    // A refuses a pair of different rarities in the form itself.
    await alice.page.goto(`${baseUrl}/trades/new`);
    expect(await seriousA11yViolations(alice.page)).toEqual([]);
    const offerId = await postOffer(alice.page, "ふしぎだね", "ひとかげ", "フシギダネとヒトカゲを交換しませんか");
    await expect(alice.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`${alice.name}さんのトレード募集`);
    expect(await seriousA11yViolations(alice.page)).toEqual([]);

    const bob = await player("ボブ");
    // B's own offer is the mirror image of A's, so A's offer is one of B's matches.
    await postOffer(bob.page, "ひとかげ", "ふしぎだね", "ヒトカゲを出せます");

    // 1) The card filter: B picks the card A gives; the URL carries the filter.
    await bob.page.goto(`${baseUrl}/trades`);
    await pickCard(bob.page, "譲っているカード", "ふしぎだね");
    await bob.page.waitForURL(/\/trades\?give=/);
    const filtered = bob.page.locator("article", { has: bob.page.getByRole("heading", { name: `${alice.name}さんのトレード募集` }) });
    await filtered.waitFor();
    expect(await filtered.textContent()).toContain("フシギダネとヒトカゲを交換しませんか");
    expect(await filtered.textContent()).not.toMatch(/1234/); // friend IDs never reach the board
    // ほしいカードに追加 from the board: the card shows as added, the board stays where it was — no
    // navigation (neither a page load nor a history entry) and the same scroll position.
    const filteredUrl = bob.page.url();
    const viewport = bob.page.viewportSize();
    await bob.page.setViewportSize({ width: 360, height: 360 }); // short enough that the board scrolls
    const chip = filtered.getByRole("button", { name: "フシギダネをほしいカードに追加" });
    await chip.scrollIntoViewIfNeeded();
    await bob.page.evaluate(() => window.scrollBy(0, 40));
    await chip.scrollIntoViewIfNeeded();
    const before = await bob.page.evaluate(() => {
      const marked = window as unknown as { stayed: boolean; historyWrites: number };
      marked.stayed = true;
      marked.historyWrites = 0;
      for (const name of ["pushState", "replaceState"] as const) {
        const original = history[name].bind(history);
        history[name] = (...a: Parameters<History["pushState"]>) => {
          marked.historyWrites += 1;
          original(...a);
        };
      }
      return window.scrollY;
    });
    expect(before).toBeGreaterThan(0);
    await chip.click();
    await filtered.getByRole("button", { name: "フシギダネはほしいカードに追加済み（押すと外します）" }).waitFor();
    expect(
      await bob.page.evaluate(() => {
        const marked = window as unknown as { stayed?: boolean; historyWrites?: number };
        return { scrollY: window.scrollY, stayed: marked.stayed, historyWrites: marked.historyWrites };
      }),
    ).toEqual({
      scrollY: before,
      stayed: true,
      historyWrites: 0,
    });
    expect(bob.page.url()).toBe(filteredUrl);
    // A refusal (here: more than 30 changes in a minute) appears beside the chip as an alert, in the
    // server's words, and the chip keeps its state. The presses before it go straight to the action;
    // if the minute turns between them and the press, the press goes through and the round is repeated.
    const fushigidane = filtered.locator(".offer-chip", { hasText: "フシギダネ" }).getByTestId("want-chip");
    const problemsBefore = bob.problems.length;
    let refusal = "";
    for (let round = 0; round < 3 && !refusal; round++) {
      const state = await fushigidane.getAttribute("data-wanted");
      await bob.page.evaluate(async () => {
        for (let i = 0; i < 31; i++) {
          await fetch("/wanted-cards", { method: "POST", redirect: "manual", body: new URLSearchParams({ cardId: "A1-004", intent: "remove", redirectTo: "/trades" }) });
        }
      });
      await fushigidane.click();
      const alert = filtered.locator(".offer-chip", { hasText: "フシギダネ" }).getByRole("alert");
      await expect.poll(async () => (await alert.count()) > 0 || (await fushigidane.getAttribute("data-wanted")) !== state, { timeout: 15_000 }).toBe(true);
      if (await alert.count()) {
        refusal = (await alert.textContent()) ?? "";
        expect(await fushigidane.getAttribute("data-wanted")).toBe(state);
      }
    }
    expect(refusal).toContain("1分ほど待ってから");
    // The browser logs each refused request (429); nothing else may appear.
    const refused = bob.problems.splice(problemsBefore);
    expect(refused.filter((problem) => !problem.includes("status of 429"))).toEqual([]);
    if (viewport) await bob.page.setViewportSize(viewport);
    expect(await seriousA11yViolations(bob.page)).toEqual([]);
    // Signed out, the same button asks to log in first and comes back to this board.
    const visitor = await newContext(browser);
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(filteredUrl);
    const loginFirst = visitorPage.locator("article", { has: visitorPage.getByRole("heading", { name: `${alice.name}さんのトレード募集` }) }).getByRole("link", { name: "ログインしてフシギダネをほしいカードに追加" });
    expect(await loginFirst.getAttribute("href")).toBe(`/login?redirectTo=${encodeURIComponent(new URL(filteredUrl).pathname + new URL(filteredUrl).search)}`);
    await visitor.close();

    // 2) マッチ.
    await bob.page.getByRole("link", { name: "マッチ" }).click();
    await bob.page.waitForURL(/view=matches/);
    const match = bob.page.locator("article", { has: bob.page.getByRole("heading", { name: `${alice.name}さんのトレード募集` }) });
    await match.waitFor();
    expect(await match.textContent()).toContain("交換できるペア 1組");
    expect(await seriousA11yViolations(bob.page)).toEqual([]);

    // 3) 交渉する → the chat room of this offer and B.
    await match.getByRole("button", { name: "交渉する" }).click();
    await bob.page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const roomUrl = bob.page.url();
    // Pressing it again reopens the same room.
    await bob.page.goto(`${baseUrl}/trades/${offerId}`);
    await bob.page.getByRole("button", { name: "交渉する" }).click();
    await bob.page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    expect(bob.page.url()).toBe(roomUrl);

    expect(alice.problems).toEqual([]);
    expect(bob.problems).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });

  it("マッチ shows its ranked list ten to a page, with 次のページ and 前のページ, on a phone", async () => {
    // ◆ ナゾノクサ (A1-011) and ◆ コンパン (A1-016): no other test trades them.
    const mirror = { give: [{ cardId: "A1-011", count: 1 }], want: [{ cardId: "A1-016", count: 1 }] };
    const seeker = await player("ページ", PHONE);
    const own = await seeker.context.request.post(`${baseUrl}/api/trades`, { data: { give: mirror.want, want: mirror.give }, headers: { Origin: baseUrl } });
    expect(own.status()).toBe(201);
    // Eleven partners post the mirror offer (through the APIs; the form has its own test).
    for (let i = 0; i < 11; i++) {
      const email = `pager-${randomBytes(4).toString("hex")}@example.com`;
      const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { origin: baseUrl, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "trade-pass-1234", name: `相手${i + 1}` }),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const friendId = `5555${String(Date.now() + i).slice(-12)}`;
      const profile = await fetch(`${baseUrl}/profile`, {
        method: "POST",
        headers: { origin: baseUrl, cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ displayName: `相手${i + 1}`, friendId }).toString(),
        redirect: "manual",
      });
      expect(profile.status).toBe(200);
      const posted = await fetch(`${baseUrl}/api/trades`, { method: "POST", headers: { origin: baseUrl, cookie, "content-type": "application/json" }, body: JSON.stringify(mirror) });
      expect(posted.status).toBe(201);
    }

    const { page } = seeker;
    await page.goto(`${baseUrl}/trades?view=matches`);
    const pager = page.getByRole("navigation", { name: "マッチのページ" });
    await pager.getByText("1 / 2ページ").waitFor();
    expect(await page.locator('section[aria-labelledby="matches-heading"] article').count()).toBe(10);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await pager.getByRole("link", { name: "次のページ" }).click();
    await page.waitForURL(/view=matches&page=2$/);
    // The URL moves before the new page has rendered: wait for its pager.
    await pager.getByText("2 / 2ページ").waitFor();
    expect(await page.locator('section[aria-labelledby="matches-heading"] article').count()).toBe(1);
    await pager.getByRole("link", { name: "前のページ" }).click();
    await page.waitForURL(/view=matches$/);
    await pager.getByText("1 / 2ページ").waitFor();
    expect(seeker.problems).toEqual([]);
    await seeker.context.close();
  });

  it("another user cannot change an offer through the API, and the owner's actions work on a phone", async () => {
    const owner = await player("オーナー", PHONE);
    const offerId = await postOffer(owner.page, "ぜにがめ", "ぴっぴ", "");
    const intruder = await player("よこどり");
    for (const [method, data] of [
      ["DELETE", undefined],
      ["PATCH", { give: [{ cardId: "A1-001", count: 1 }], want: [{ cardId: "A1-002", count: 1 }], comment: "x" }],
      ["POST", { action: "close" }],
    ] as const) {
      const response = await intruder.context.request.fetch(`${baseUrl}/api/trades/${offerId}`, { method, data, headers: { Origin: baseUrl } });
      expect(response.status(), `${method}: ${await response.text()}`).toBe(403);
      expect((await response.json()).error).toBe("この募集を操作する権限がありません");
    }
    const offer = await (await intruder.context.request.get(`${baseUrl}/api/trades/${offerId}`)).json();
    expect(offer.offer.status).toBe("open");

    // The edit form is in the page as sent: a browser without JavaScript shows it (a finished part of
    // more than React's 12.8 KB used to come after the page, hidden, moved in by a script).
    const noScript = await newContext(browser, { ...PHONE, javaScriptEnabled: false, storageState: await owner.context.storageState() });
    const plain = await noScript.newPage();
    await plain.goto(`${baseUrl}/trades/${offerId}?edit=1`);
    await plain.getByRole("heading", { name: "トレード募集を編集" }).waitFor();
    await expect(plain.locator("#offer-comment").isVisible()).resolves.toBe(true);
    await noScript.close();

    // The owner closes the offer from the offer page on a phone.
    await owner.page.getByRole("button", { name: "募集を終了する" }).click();
    await owner.page.waitForURL(/done=closed/);
    await owner.page.getByRole("status").filter({ hasText: "募集を終了しました" }).waitFor();
    expect(await seriousA11yViolations(owner.page)).toEqual([]);
    // The profile lists the user's offers in every status.
    await owner.page.goto(`${baseUrl}/profile`);
    const mine = owner.page.locator('section[aria-labelledby="my-offers"] article');
    await mine.first().waitFor();
    expect(await mine.count()).toBe(1);
    expect(await mine.first().textContent()).toContain("終了");
    expect(owner.problems).toEqual([]);
    await owner.context.close();
    await intruder.context.close();
  });

  it("a card's page counts its open offers and links to the filtered board", async () => {
    const owner = await player("カード");
    const offerId = await postOffer(owner.page, "ぽっぽ", "こらった", "");
    // A card chip navigates inside the app: the page's JavaScript state survives the click.
    await owner.page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await owner.page.locator("article").getByRole("link", { name: "ポッポ" }).click();
    await owner.page.waitForURL(/\/cards\/[^/?]+$/);
    expect(await owner.page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    const giveLink = owner.page.getByTestId("card-trade-counts").getByRole("link", { name: /^譲 \d+件$/ });
    expect(Number((await giveLink.textContent())!.match(/\d+/)![0])).toBeGreaterThanOrEqual(1);
    await giveLink.click();
    await owner.page.waitForURL(/\/trades\?give=/);
    await owner.page.locator(`a[href="/trades/${offerId}"]`).first().waitFor();
    expect(owner.problems).toEqual([]);
    await owner.context.close();
  });

  it("a report reaches the admin 通報 tab, where the admin closes the offer", async () => {
    const owner = await player("通報対象");
    const offerId = await postOffer(owner.page, "きゃたぴー", "びーどる", "怪しい募集");
    const reporter = await player("通報者");
    await reporter.page.goto(`${baseUrl}/trades/${offerId}`);
    await reporter.page.getByText("通報する", { exact: true }).click();
    await reporter.page.getByLabel("通報の理由").fill("実在しない取引を持ちかけている");
    await reporter.page.getByRole("button", { name: "通報を送信" }).click();
    await reporter.page.waitForURL(/done=reported/);

    // The admin account of the e2e server (ADMIN_EMAILS); another test file may have created it.
    const adminContext = await newContext(browser);
    const admin = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };
    const signUp = await adminContext.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: admin, headers: { Origin: baseUrl } });
    if (signUp.status() !== 200) {
      const signIn = await adminContext.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: admin, headers: { Origin: baseUrl } });
      expect(signIn.status()).toBe(200);
    }
    const page = await adminContext.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin?tab=reports`);
    const report = page.getByTestId("report").filter({ hasText: "実在しない取引を持ちかけている" });
    await report.waitFor();
    expect(await report.textContent()).toContain(owner.name);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await report.getByRole("button", { name: "募集を終了させる" }).click();
    await page.waitForURL(/tab=reports&done=1/);
    await page.getByText("通報を処理しました").waitFor();
    await report.waitFor({ state: "detached" });
    const offer = await (await adminContext.request.get(`${baseUrl}/api/trades/${offerId}`)).json();
    expect(offer.offer.status).toBe("closed");
    // Someone who is not an admin cannot resolve reports.
    const denied = await reporter.context.request.post(`${baseUrl}/api/admin/reports/00000000-0000-4000-8000-000000000000`, {
      data: { action: "dismiss" },
      headers: { Origin: baseUrl },
    });
    expect(denied.status()).toBe(403);
    expect(problems).toEqual([]);
    await Promise.all([adminContext.close(), owner.context.close(), reporter.context.close()]);
  });

  it("a player on a desktop posts 譲 ヒトカゲ with 求 何でも可; another player on a phone giving a card of that rarity finds it in マッチ and names the card in the room, which the owner's open room shows at once", async () => {
    const anyOwner = await player("ナンデモ", { viewport: { width: 1280, height: 900 } });
    await anyOwner.page.goto(`${baseUrl}/trades/new`);
    await pickCard(anyOwner.page, "譲れるカードを追加", "ひとかげ");
    await anyOwner.page.getByTestId("want-any").check();
    // The 求 picker gives way to 何でも可; the pairs say the partner picks a ◆ card.
    await expect(anyOwner.page.getByRole("combobox", { name: "欲しいカードを追加" }).count()).resolves.toBe(0);
    await anyOwner.page.getByText("何でも可: 相手が同じレアリティ（◆）のカードを選びます").waitFor();
    expect(await seriousA11yViolations(anyOwner.page)).toEqual([]);
    await anyOwner.page.getByRole("button", { name: "募集を投稿する" }).click();
    await anyOwner.page.waitForURL(/\/trades\/[0-9a-f-]{36}\?done=posted$/);
    const anyOfferId = new URL(anyOwner.page.url()).pathname.split("/").pop()!;
    await anyOwner.page.getByTestId("any-card").getByText("何でも可（同じレアリティ）").waitFor();
    expect(await seriousA11yViolations(anyOwner.page)).toEqual([]);

    // Someone wanting ヒトカゲ and giving a ◆ card: the 何でも可 offer is in their マッチ.
    const seeker = await player("サガス", PHONE);
    await postOffer(seeker.page, "ぜにがめ", "ひとかげ", "ゼニガメ出せます");
    await seeker.page.goto(`${baseUrl}/trades?view=matches`);
    const match = seeker.page.locator("article", { has: seeker.page.getByRole("link", { name: `${anyOwner.name}さんのトレード募集` }) });
    await match.waitFor();
    expect(await match.getByRole("link", { name: `${anyOwner.name}さんのトレード募集` }).getAttribute("href")).toBe(`/trades/${anyOfferId}`);
    await match.getByText("何でも可（同じレアリティ）").waitFor();
    expect(await seriousA11yViolations(seeker.page)).toEqual([]);

    // 交渉する: the seeker names the ◆ card they give; the owner's open room shows it at once.
    await match.getByRole("button", { name: "交渉する" }).click();
    await seeker.page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const roomPath = new URL(seeker.page.url()).pathname;
    await anyOwner.page.goto(`${baseUrl}${roomPath}`);
    // On a desktop the trade panel is open beside the messages (the phone's toggle is hidden).
    expect(await anyOwner.page.getByTestId("trade-panel-toggle").isVisible()).toBe(false);
    await anyOwner.page.getByTestId("any-card-wait").waitFor();
    await seeker.page.getByTestId("trade-panel-summary").click();
    const agree = seeker.page.getByRole("button", { name: "条件合意", exact: true });
    expect(await agree.isDisabled()).toBe(true);
    await pickCard(seeker.page, "◆のカードを検索", "ぜにがめ");
    await seeker.page.getByTestId("room-cards-youGive").getByText("ゼニガメ").waitFor();
    await seeker.page.getByText("あなたが選んだカード").waitFor();
    expect(await agree.isDisabled()).toBe(false);
    await anyOwner.page.getByTestId("room-cards-youReceive").getByText("ゼニガメ").waitFor();
    await anyOwner.page.getByText(`${seeker.name}さんが選んだカード`).waitFor();
    await anyOwner.page.getByText(`${seeker.name}さんが何でも可の側のカードを選びました。`).waitFor();
    expect(await seriousA11yViolations(seeker.page)).toEqual([]);
    expect(await seriousA11yViolations(anyOwner.page)).toEqual([]);
    expect(anyOwner.problems).toEqual([]);
    expect(seeker.problems).toEqual([]);
    await Promise.all([anyOwner.context.close(), seeker.context.close()]);
  });

  it("posting needs a signed-in user with a friend ID", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}/trades/new`);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(response?.status()).toBe(200);
    // Signed in without a friend ID: the profile comes first.
    const signup = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
      data: { name: "フレンドIDなし", email: `no-friend-${Date.now()}@example.com`, password: "trade-pass-1234" },
      headers: { Origin: baseUrl },
    });
    expect(signup.status()).toBe(200);
    await page.goto(`${baseUrl}/trades/new`);
    expect(new URL(page.url()).pathname).toBe("/profile");
    await context.close();
  });
});
