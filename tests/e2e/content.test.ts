import { randomBytes } from "node:crypto";
import path from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { postOffer, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";
import { launchBrowser, newContext, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
// The e2e server makes this address an administrator (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password", name: "管理者" };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The server-rendered <head> of a page as a signed-out visitor gets it. */
async function headOf(pathname: string): Promise<string> {
  const res = await fetch(baseUrl + pathname);
  expect(res.status, pathname).toBe(200);
  const html = await res.text();
  return html.slice(0, html.indexOf("</head>"));
}

const attr = (head: string, selector: RegExp) => selector.exec(head)?.[1];
const metaContent = (head: string, key: string) => attr(head, new RegExp(`<meta (?:name|property)="${key.replace(/[:]/g, "\\:")}" content="([^"]*)"`));

describe("the head of every public page (SSR)", () => {
  it("/, /cards, a card page and an offer page carry canonical, og:image, og:url, twitter:card and JSON-LD", async () => {
    const context = await newContext(browser);
    const [give, want] = await twoTradeableCards(context.request, baseUrl);
    await signUp(context.request, baseUrl, "SEO確認", `31${Date.now()}`.slice(0, 16).padEnd(16, "1"));
    const offerId = await postOffer(context.request, baseUrl, give, want);
    await context.close();

    for (const [pathname, type] of [["/", "WebSite"], ["/cards", "BreadcrumbList"], [`/cards/${give}`, "BreadcrumbList"], [`/trades/${offerId}`, "BreadcrumbList"]] as const) {
      const head = await headOf(pathname);
      const canonical = attr(head, /<link rel="canonical" href="([^"]+)"/);
      expect(canonical, pathname).toMatch(new RegExp(`^${baseUrl}/`));
      expect(metaContent(head, "og:url"), pathname).toBe(canonical);
      expect(metaContent(head, "og:image"), pathname).toMatch(/^https?:\/\//);
      expect(metaContent(head, "twitter:card"), pathname).toBe("summary_large_image");
      const ld = [...head.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map((m) => JSON.parse(m[1]) as { "@type": string });
      expect(ld.map((d) => d["@type"]), pathname).toContain(type);
      expect(metaContent(head, "robots"), pathname).toBeUndefined();
    }
    // Private pages are kept out of search results.
    expect(metaContent(await headOf("/login"), "robots")).toBe("noindex, follow");
  });

  it("serves robots.txt and a sitemap index with its parts", async () => {
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
    const index = await fetch(`${baseUrl}/sitemap.xml`);
    expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const parts = [...(await index.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(parts).toContain(`${baseUrl}/sitemaps/cards-1.xml`);
    const cards = await (await fetch(`${baseUrl}/sitemaps/cards-1.xml`)).text();
    expect(cards).toContain(`<loc>${baseUrl}/cards/`);
  });
});

describe("site settings (admin サイト設定)", () => {
  it("an admin uploads an OG image through the file picker, saves a new description, and a signed-out page shows both", async () => {
    const context = await newContext(browser);
    const up = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, { data: ADMIN, headers: { origin: baseUrl } });
    if (!up.ok()) {
      const signIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseUrl } });
      expect(signIn.ok()).toBe(true);
    }
    // A photo with GPS data, as a phone would send it.
    const dir = mkdtempSync(path.join(tmpdir(), "torepoke-e2e-"));
    const photo = path.join(dir, "summer-event.jpg");
    writeFileSync(
      photo,
      await sharp({ create: { width: 1800, height: 1200, channels: 3, background: "#1e88e5" } })
        .jpeg()
        .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 40/1 0/1" } })
        .toBuffer(),
    );

    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin?tab=settings`);
    await page.getByRole("group", { name: "SEO設定" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const description = `夏のイベント特集 ${randomBytes(3).toString("hex")}。ポケポケのトレードならトレポケ。`;
    await page.getByLabel("メタディスクリプション").fill(description);
    await page.getByLabel("キーワード").fill("ポケポケ、トレード, イベント");
    await page.getByLabel("OGタイトル").fill("トレポケ 夏のイベント");
    await page.locator('input[type="file"]').setInputFiles(photo);
    const ogImage = page.getByLabel("OG画像URL");
    await expect.poll(() => ogImage.inputValue(), { timeout: 20_000 }).toMatch(/^\/uploads\/og\/\d+-[\w-]+-1200x630\.webp$/);
    const imageUrl = await ogImage.inputValue();
    await page.getByRole("img", { name: "OG画像のプレビュー" }).waitFor();

    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("設定が保存されました。").waitFor();
    // docs/product-rules.md §9: the success message clears after 3 seconds.
    await page.getByText("設定が保存されました。").waitFor({ state: "detached", timeout: 10_000 });
    expect(problems).toEqual([]);

    // The uploaded file: re-encoded, named by the server, served immutable and never sniffed.
    const file = await fetch(baseUrl + imageUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/webp");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1200, height: 630 });
    expect(meta.exif).toBeUndefined();
    expect((await fetch(`${baseUrl}/uploads/og/missing.webp`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/uploads/og/x.svg`)).status).toBe(404);

    // A signed-out visitor (no cookie: the shared page cache) sees the new head at once.
    const home = await headOf("/");
    expect(metaContent(home, "description")).toBe(description);
    expect(metaContent(home, "og:title")).toBe("トレポケ 夏のイベント");
    // Pages with their own description and no image of their own keep theirs and share the site's image.
    for (const pathname of ["/", "/trades", "/terms"]) {
      const head = await headOf(pathname);
      expect(metaContent(head, "keywords"), pathname).toBe("ポケポケ, トレード, イベント");
      expect(metaContent(head, "og:image"), pathname).toBe(baseUrl + imageUrl);
    }

    // The page after a reload shows what was saved.
    await page.reload();
    expect(await page.getByLabel("メタディスクリプション").inputValue()).toBe(description);

    // A file that is not an image is refused: docs/product-rules.md §8's message with the cause, nothing changed.
    const svg = path.join(dir, "logo.svg");
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>');
    await page.locator('input[type="file"]').setInputFiles(svg);
    await page.getByRole("alert").filter({ hasText: "画像のアップロードに失敗しました: この形式のファイルはアップロードできません" }).waitFor();
    expect(await page.getByLabel("OG画像URL").inputValue()).toBe(imageUrl);
    await context.close();
  });

  it("refuses a user who is not an admin: 管理者権限がありません。", async () => {
    const context = await newContext(browser);
    await signUp(context.request, baseUrl, "一般", `32${Date.now()}`.slice(0, 16).padEnd(16, "2"));
    const res = await context.request.put(`${baseUrl}/api/admin/settings`, { data: { metaDescription: "x", seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "" }, headers: { origin: baseUrl } });
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({ error: "管理者権限がありません。", code: "admin_required" });
    await context.close();
  });
});
