import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
// The e2e server makes this address an administrator (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };
const TITLE = "夏イベント攻略まとめ";

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

/** Selects characters [start, end) of the content textarea, as a mouse drag would. */
async function select(page: Page, textarea: string, start: number, end: number) {
  await page.locator(textarea).focus();
  await page.locator(textarea).evaluate((el: HTMLTextAreaElement, [s, e]) => el.setSelectionRange(s, e), [start, end]);
}

describe("articles: an admin writes, previews and publishes; a visitor reads it on a phone", () => {
  it("goes from the editor to /articles, the home page, the sitemap and the feed, and 404s once unpublished", async () => {
    const context = await adminContext();
    // A public article to relate to, made through the API the scripts use.
    const related = await context.request.post(`${baseUrl}/api/admin/articles`, {
      data: { title: "Related pack news", category: "guide", content: "関連する記事です。", isPublic: true },
      headers: { origin: baseUrl },
    });
    expect(related.status()).toBe(201);
    const relatedSlug = ((await related.json()) as { slug: string }).slug;
    const cards = (await (await context.request.get(`${baseUrl}/api/cards?pack=pikachu&limit=1`)).json()) as { cards: { id: string; name: string }[] };
    const card = cards.cards[0];
    const dir = mkdtempSync(path.join(tmpdir(), "torepoke-e2e-"));
    const photo = path.join(dir, "event.png");
    writeFileSync(photo, await sharp({ create: { width: 800, height: 500, channels: 3, background: "#e53935" } }).png().toBuffer());

    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin`);
    await expect(page.getByRole("tab", { name: "記事管理" }).getAttribute("aria-selected")).resolves.toBe("true");
    await page.getByRole("button", { name: "新規作成" }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // 基本設定
    await page.getByLabel("タイトル", { exact: true }).fill(TITLE);
    await page.getByLabel("カテゴリー", { exact: true }).selectOption("guide");
    await expect(page.getByLabel("公開する", { exact: true }).isChecked()).resolves.toBe(false);

    // 本文: heading, a link through the dialog, a card, an uploaded image, a related article.
    await page.getByRole("tab", { name: "本文", exact: true }).click();
    const textarea = 'textarea[name="content"]';
    const text = "イベントの概要\n公式サイトで詳細を確認してください。\n";
    await page.locator(textarea).fill(text);
    await select(page, textarea, 0, 0);
    await page.getByRole("button", { name: "見出し（大）" }).click();
    await expect(page.locator(textarea).inputValue()).resolves.toBe("## イベントの概要\n公式サイトで詳細を確認してください。\n");

    // Without a selection the link tool says what to do.
    await select(page, textarea, 3, 3);
    await page.getByRole("button", { name: "リンク", exact: true }).click();
    await page.getByText("リンクにするテキストを選択してください").waitFor();
    const linkStart = (await page.locator(textarea).inputValue()).indexOf("公式サイト");
    await select(page, textarea, linkStart, linkStart + "公式サイト".length);
    await page.getByRole("button", { name: "リンク", exact: true }).click();
    const linkDialog = page.getByRole("dialog", { name: "リンクを挿入" });
    await expect(linkDialog.getByTestId("link-selected-text").textContent()).resolves.toBe("公式サイト");
    await expect(linkDialog.getByRole("button", { name: "追加" }).isDisabled()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await linkDialog.getByLabel("URL").fill("https://example.com/event");
    await linkDialog.getByRole("button", { name: "追加" }).click();
    await linkDialog.waitFor({ state: "detached" });

    const end = (await page.locator(textarea).inputValue()).length;
    await select(page, textarea, end, end);
    await page.getByRole("button", { name: "カード", exact: true }).click();
    const cardDialog = page.getByRole("dialog", { name: "カードを挿入" });
    await expect(cardDialog.getByRole("button", { name: "挿入" }).isDisabled()).resolves.toBe(true);
    await cardDialog.getByLabel("パック").selectOption("pikachu");
    await cardDialog.getByLabel("カード名で検索").fill(card.name);
    await cardDialog.getByRole("button", { name: card.name }).first().click();
    await cardDialog.getByRole("button", { name: "挿入" }).click();
    await cardDialog.waitFor({ state: "detached" });
    await expect(page.locator(textarea).inputValue()).resolves.toContain(`[[card:${card.id}]]`);

    const [uploaded] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/admin/uploads") && r.status() === 201),
      page.getByLabel("画像", { exact: true }).setInputFiles(photo),
    ]);
    const imageUrl = ((await uploaded.json()) as { url: string }).url;
    await page.waitForFunction((url) => (document.querySelector('textarea[name="content"]') as HTMLTextAreaElement).value.includes(url), imageUrl);

    await page.getByRole("button", { name: "関連記事", exact: true }).click();
    const relatedDialog = page.getByRole("dialog", { name: "関連記事を挿入" });
    await relatedDialog.getByLabel("タイトルで検索").fill("Related pack");
    await relatedDialog.getByRole("button", { name: /Related pack news/ }).click();
    await relatedDialog.waitFor({ state: "detached" });
    const source = await page.locator(textarea).inputValue();
    expect(source).toContain("[公式サイト](https://example.com/event)");
    expect(source).toContain(`[[article:${relatedSlug}]]`);

    // Preview, then back: the cursor is where it was.
    await select(page, textarea, 5, 9);
    await page.getByRole("tab", { name: "プレビュー", exact: true }).click();
    const preview = page.getByTestId("content-preview");
    await preview.locator("h2", { hasText: "イベントの概要" }).waitFor();
    await expect(preview.locator('a[href="https://example.com/event"]').getAttribute("rel")).resolves.toBe("noopener noreferrer");
    await expect(preview.locator('a[href="https://example.com/event"]').getAttribute("target")).resolves.toBe("_blank");
    await preview.locator(`a[href="/cards/${card.id}"]`).waitFor();
    await preview.locator(`img[src="${imageUrl}"]`).waitFor();
    await preview.locator(`a[href="/articles/${relatedSlug}"]`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("tab", { name: "編集", exact: true }).click();
    await expect(page.locator(textarea).evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).resolves.toEqual([5, 9]);

    // SEO
    await page.getByRole("tab", { name: "SEO", exact: true }).click();
    await page.getByLabel("キーワード", { exact: true }).fill("ポケポケ、イベント");
    await page.getByLabel("メタディスクリプション", { exact: true }).fill("夏イベントの攻略情報をまとめました。");

    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("記事を投稿しました").waitFor();
    const row = page.getByRole("row", { name: new RegExp(TITLE) });
    // The list reloads after the save: wait for the new row rather than looking once.
    await row.getByText("非公開", { exact: true }).waitFor();
    await row.getByRole("button", { name: `公開する: ${TITLE}` }).click();
    await row.getByText("公開中", { exact: true }).waitFor();
    expect(problems).toEqual([]);

    const list = (await (await context.request.get(`${baseUrl}/api/admin/articles?q=${encodeURIComponent(TITLE)}`)).json()) as { articles: { slug: string; id: string }[] };
    const { slug, id } = list.articles[0];
    expect(slug).toMatch(/^article-[0-9a-f]{8}$/);

    // A signed-out visitor on a phone.
    const visitor = await newContext(browser, PHONE);
    const phone = await visitor.newPage();
    const visitorProblems = watchConsole(phone);
    await phone.goto(`${baseUrl}/articles`);
    await phone.getByRole("link", { name: new RegExp(TITLE) }).waitFor();
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.goto(`${baseUrl}/`);
    await phone.getByRole("heading", { name: "新着記事" }).waitFor();
    await phone.getByRole("link", { name: new RegExp(TITLE) }).click();
    await phone.waitForURL(`${baseUrl}/articles/${slug}`);
    await phone.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await phone.locator(".content-body h2", { hasText: "イベントの概要" }).waitFor();
    await phone.locator(`.content-body a[href="/cards/${card.id}"]`).waitFor();
    // Loaded as a document, the body is markup only (not a second time in the hydration data),
    // hydration keeps it, and a client navigation to another article brings that one's body.
    const documentHtml = await (await fetch(`${baseUrl}/articles/${slug}`)).text();
    expect(documentHtml.split("で詳細を確認してください").length - 1).toBe(1);
    await phone.goto(`${baseUrl}/articles/${slug}`);
    await phone.waitForLoadState("networkidle");
    await phone.locator(".content-body h2", { hasText: "イベントの概要" }).waitFor();
    await phone.evaluate(() => Object.assign(window, { sameDocument: true }));
    // The older article of the same category, linked as the previous one.
    await phone.locator(`a[rel="prev"][href="/articles/${relatedSlug}"]`).click();
    await phone.waitForURL(`${baseUrl}/articles/${relatedSlug}`);
    await phone.locator(".content-body", { hasText: "関連する記事です。" }).waitFor();
    expect(await phone.locator(".content-body h2").count()).toBe(0);
    await phone.goBack();
    await phone.locator(".content-body h2", { hasText: "イベントの概要" }).waitFor();
    expect(await phone.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    const head = await (await fetch(`${baseUrl}/articles/${slug}`)).text();
    expect(head).toContain('<meta property="og:type" content="article"/>');
    expect(head).toContain(`<link rel="canonical" href="${baseUrl}/articles/${slug}"/>`);
    expect(head).toMatch(/"@type":"Article"/);
    expect(head).toMatch(/"@type":"BreadcrumbList"/);
    const byId = await fetch(`${baseUrl}/articles/${id}`, { redirect: "manual" });
    expect(byId.status).toBe(301);
    expect(await (await fetch(`${baseUrl}/sitemaps/articles-1.xml`)).text()).toContain(`${baseUrl}/articles/${slug}</loc>`);
    expect(await (await fetch(`${baseUrl}/articles/feed.xml`)).text()).toContain(`${baseUrl}/articles/${slug}`);
    expect(visitorProblems).toEqual([]);

    // Unpublished: a real 404 for everyone but administrators.
    await row.getByRole("button", { name: `非公開にする: ${TITLE}` }).click();
    await row.getByText("非公開", { exact: true }).waitFor();
    const gone = await phone.goto(`${baseUrl}/articles/${slug}`);
    expect(gone?.status()).toBe(404);
    const adminPreview = await page.goto(`${baseUrl}/articles/${slug}`);
    expect(adminPreview?.status()).toBe(200);
    await page.getByText(/プレビュー（非公開）/).waitFor();
    await expect(page.locator('meta[name="robots"]').getAttribute("content")).resolves.toMatch(/noindex/);
    await visitor.close();
    await context.close();
  });

  it("offers a kept draft back after a reload, and deletes only after confirmation", async () => {
    const context = await adminContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole("button", { name: "新規作成" }).click();
    await page.getByLabel("タイトル", { exact: true }).fill("下書きのタイトル");
    // The draft is written shortly after typing stops.
    await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith("torepoke:draft:article:new") && localStorage.getItem(k)!.includes("下書きのタイトル")));
    await page.reload();
    await page.getByRole("button", { name: "新規作成" }).click();
    await page.getByRole("button", { name: "復元する" }).click();
    await expect(page.getByLabel("タイトル", { exact: true }).inputValue()).resolves.toBe("下書きのタイトル");
    // Saving without category and text: docs/product-rules.md's messages at the fields.
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("カテゴリーを選択してください").waitFor();
    await page.getByLabel("カテゴリー", { exact: true }).selectOption("news");
    await page.getByRole("tab", { name: "本文", exact: true }).click();
    await page.getByText("内容を入力してください").waitFor();
    await page.locator('textarea[name="content"]').fill("すぐ消す記事");
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await page.getByText("記事を投稿しました").waitFor();

    const row = page.getByRole("row", { name: /下書きのタイトル/ });
    await row.getByRole("button", { name: "削除: 下書きのタイトル" }).click();
    const confirm = page.getByRole("dialog", { name: "記事を削除しますか？" });
    await confirm.getByRole("button", { name: "キャンセル" }).click();
    await expect(row.isVisible()).resolves.toBe(true);
    await row.getByRole("button", { name: "削除: 下書きのタイトル" }).click();
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText("記事を削除しました").waitFor();
    await row.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await context.close();
  });
});
