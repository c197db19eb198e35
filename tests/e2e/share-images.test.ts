import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";
import { signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What a link preview (X, LINE) reads: the page's og:image and twitter:image, as a signed-out visitor. */
async function previewImage(path: string): Promise<{ url: string; bytes: Buffer; cacheControl: string | null; type: string | null }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${baseUrl}${path}`);
  const og = await page.locator('meta[property="og:image"]').getAttribute("content");
  const twitter = await page.locator('meta[name="twitter:image"]').getAttribute("content");
  await context.close();
  expect(problems).toEqual([]);
  expect(og).toMatch(/\/share\/(deck|offer|card)\/[^/]+\/[0-9a-f]{16}\.webp$/);
  expect(twitter).toBe(og);
  const answer = await fetch(og!);
  expect(answer.status).toBe(200);
  return { url: og!, bytes: Buffer.from(await answer.arrayBuffer()), cacheControl: answer.headers.get("cache-control"), type: answer.headers.get("content-type") };
}

/** A 1200×630 picture with something drawn on it (a blank one has no variation in any channel). */
async function expectDrawnImage(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  expect([meta.width, meta.height]).toEqual([1200, 630]);
  const stats = await sharp(bytes).stats();
  expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(20);
  expect(stats.isOpaque).toBe(true);
}

describe("share images", () => {
  it("a deck recipe's og:image is its own 1200×630 picture, cached for a year, and a new one after the deck is edited", async () => {
    const admin = await newContext(browser);
    await signInAdmin(admin, baseUrl);
    const name = `シェア画像デッキ${randomBytes(2).toString("hex")}`;
    const body = {
      name,
      tier: 1,
      category: "deck-recipe",
      isPublic: true,
      // Six cards: published as confirmed (the picture is what is tested, not the rules).
      publishIllegal: true,
      energyTypes: ["electric"],
      cards: [
        { cardId: "A1-096", count: 2 },
        { cardId: "A1-097", count: 2 },
        { cardId: "A1-104", count: 2 },
      ],
    };
    const created = await admin.request.post(`${baseUrl}/api/admin/decks`, { data: body, headers: { origin: baseUrl } });
    expect(created.status(), await created.text()).toBe(201);
    const { id, slug } = (await created.json()) as { id: string; slug: string };
    const revision = 1; // a new deck's first revision: saves name the one they loaded

    const before = await previewImage(`/deck-recipes/${slug}`);
    expect(before.type).toBe("image/webp");
    expect(before.cacheControl).toContain("immutable");
    await expectDrawnImage(before.bytes);
    // Served again from the upload store: the same bytes.
    expect(Buffer.from(await (await fetch(before.url)).arrayBuffer()).equals(before.bytes)).toBe(true);

    const edited = await admin.request.patch(`${baseUrl}/api/admin/decks/${id}`, { data: { ...body, name: `${name}改`, tier: 2, revision }, headers: { origin: baseUrl } });
    expect(edited.status(), await edited.text()).toBe(200);
    const after = await previewImage(`/deck-recipes/${slug}`);
    expect(after.url).not.toBe(before.url);
    expect(after.bytes.equals(before.bytes)).toBe(false);
    await expectDrawnImage(after.bytes);
    // The old revision's URL leads to the current picture.
    const old = await fetch(before.url, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(new URL(old.headers.get("location")!, baseUrl).href).toBe(after.url);

    // The deck page offers the picture to download.
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${baseUrl}/deck-recipes/${slug}`);
    const download = page.getByRole("link", { name: "シェア画像をダウンロード" });
    expect(await download.getAttribute("href")).toBe(new URL(after.url).pathname);
    expect(await download.getAttribute("download")).toBe(`${slug}.webp`);
    await page.context().close();
    await admin.close();
  });

  it("an offer's og:image shows 譲 → 求 and changes once the offer is closed", async () => {
    const owner = await newContext(browser);
    const tag = randomBytes(3).toString("hex");
    const signup = await owner.request.post(`${baseUrl}/api/auth/sign-up/email`, {
      data: { name: `シェア${tag}`, email: `share-${tag}-${Date.now()}@example.com`, password: "share-pass-1234" },
      headers: { origin: baseUrl },
    });
    expect(signup.status()).toBe(200);
    // Posting needs a friend ID (set on /profile).
    const profile = await owner.newPage();
    await profile.goto(`${baseUrl}/profile`);
    await profile.fill("#profile-friend-id-input", `1234-5678-9012-${Math.floor(1000 + Math.random() * 8999)}`);
    await profile.locator("form:has(#profile-friend-id-input) button[type=submit]").click();
    await profile.getByTestId("profile-friend-id").waitFor();
    // ◆ フシギダネ (A1-001) for ◆ ゼニガメ (A1-053).
    const posted = await owner.request.post(`${baseUrl}/api/trades`, { data: { give: [{ cardId: "A1-001", count: 1 }], want: [{ cardId: "A1-053", count: 1 }] }, headers: { origin: baseUrl } });
    expect(posted.status(), await posted.text()).toBe(201);
    const { id } = (await posted.json()) as { id: string };

    const open = await previewImage(`/trades/${id}`);
    expect(open.cacheControl).toContain("immutable");
    await expectDrawnImage(open.bytes);

    const closed = await owner.request.post(`${baseUrl}/api/trades/${id}`, { data: { action: "close" }, headers: { origin: baseUrl } });
    expect(closed.status(), await closed.text()).toBe(200);
    // Signed-out visitors share a render of the offer page for PAGE_CACHE_SECONDS: wait for the new one.
    const ogOf = async () => /<meta property="og:image" content="([^"]+)"/.exec(await (await fetch(`${baseUrl}/trades/${id}`)).text())?.[1];
    await expect.poll(ogOf, { timeout: 20_000, interval: 500 }).not.toBe(open.url);
    const after = await previewImage(`/trades/${id}`);
    expect(after.url).not.toBe(open.url);
    expect(after.bytes.equals(open.bytes)).toBe(false);
    await expectDrawnImage(after.bytes);
    await owner.close();
  });

  it("refuses what has no picture: an unknown deck, a bad revision, another kind", async () => {
    for (const path of ["/share/deck/00000000-0000-4000-8000-000000000000/0123456789abcdef.webp", "/share/card/A1-001/nothex.webp", "/share/user/x/0123456789abcdef.webp"]) {
      const answer = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      expect(answer.status, path).toBe(404);
    }
  });
});
