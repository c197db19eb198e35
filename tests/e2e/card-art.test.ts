import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readCatalogue } from "#app/features/cards/catalogue.server.ts";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const baseUrl = inject("baseUrl");

/** Runs one of the project's scripts as an operator would (`npm run …` runs the same file). */
function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, script, ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: "warn", ...env } });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Sum of layout shifts so far (the CLS of a page without input). */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
      }),
  );
}

const firstTile = (page: Page) => page.getByRole("list", { name: "カード一覧" }).locator("[data-card-art]").first();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("card pictures without art", () => {
  it("draws the designed placeholder on /cards and the card page, axe-clean and without layout shift", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/cards?pack=dialga`);
    const grid = page.getByRole("list", { name: "カード一覧" });
    await expect(grid.locator("img").count()).resolves.toBe(0);
    const tiles = grid.locator('[data-card-art="placeholder"]');
    expect(await tiles.count()).toBeGreaterThan(10);
    // Name once per tile: as the placeholder's accessible name, not again beside it.
    const label = await tiles.first().locator("[role=img]").getAttribute("aria-label");
    expect(label).toMatch(/（.+・時空の激闘（ディアルガ）/);
    await expect(grid.locator("li").first().getByText(label!.replace(/（.*$/, ""), { exact: false }).count()).resolves.toBeLessThanOrEqual(1);
    await expect(grid.locator('[data-card-kind="trainer"]').count()).resolves.toBeGreaterThan(0);
    expect(await layoutShift(page)).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${baseUrl}/cards/A2-001`);
    await page.locator('[data-card-art="placeholder"] [role=img]').first().waitFor();
    await expect(page.getByText("たね", { exact: true }).first().isVisible()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("card pictures with art loaded by npm run cards:images", () => {
  let server: RunningServer;
  let dataDir: string;
  const dialga = readCatalogue().cards.filter((c) => c.packIds.includes("dialga"));

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-art-"));
    const seeded = await runScript("scripts/seed.ts", [], { DATA_DIR: dataDir });
    expect(seeded.code, seeded.output).toBe(0);
    // Test pictures made here: one per card of the pack, named as the catalogue names them.
    const folder = path.join(dataDir, "operator-images");
    await mkdir(folder, { recursive: true });
    const files = new Set(dialga.map((c) => c.imageFile!));
    for (const file of files) {
      const shade = file.length * 7;
      const png = await sharp({ create: { width: 367, height: 512, channels: 3, background: { r: shade % 255, g: 120, b: 200 } } }).png().toBuffer();
      await writeFile(path.join(folder, file), png);
    }
    const loaded = await runScript("scripts/cards-images.ts", [folder], { DATA_DIR: dataDir });
    expect(loaded.code, loaded.output).toBe(0);
    expect(loaded.output).toMatch(/found \d+, missing \d+, failed 0/);
    const again = await runScript("scripts/cards-images.ts", [folder], { DATA_DIR: dataDir });
    expect(again.output).toMatch(/\(stored 0, unchanged \d+\)/);
    server = await startServer({ DATA_DIR: dataDir });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("/cards and the card page show <img> from our storage, sized, lazy below the first screen, without layout shift", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/cards?pack=dialga`);
    const images = page.getByRole("list", { name: "カード一覧" }).locator("img");
    expect(await images.count()).toBeGreaterThan(10);
    const first = images.first();
    expect(await first.getAttribute("src")).toMatch(/^\/uploads\/cards\/.+-thumb\.webp$/);
    expect(await first.getAttribute("srcset")).toMatch(/-thumb\.webp 240w, .+-full\.webp 480w$/);
    expect([await first.getAttribute("width"), await first.getAttribute("height"), await first.getAttribute("loading")]).toEqual(["240", "335", "eager"]);
    expect(await images.nth(12).getAttribute("loading")).toBe("lazy");
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("ul[aria-label='カード一覧'] img");
      return Boolean(img && img.complete && img.naturalWidth > 0);
    });
    expect(await layoutShift(page)).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const href = await page.getByRole("list", { name: "カード一覧" }).locator("a").first().getAttribute("href");
    await page.goto(`${server.url}${href}`);
    const art = page.locator("article img").first();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("article img");
      return Boolean(img && img.complete && img.naturalWidth > 0 && img.currentSrc.includes("/uploads/cards/"));
    });
    expect(await art.getAttribute("loading")).toBe("eager");
    // The page's head (the one SEO helper): og:image is the stored full-size art, and a JSON-LD CreativeWork names the card with it.
    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toMatch(/^https?:\/\/[^/]+\/uploads\/cards\/.+-full\.webp$/);
    const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);
    const work = jsonLd.find((data) => data["@type"] === "CreativeWork");
    expect(work).toMatchObject({ image: ogImage, url: `${server.url}${href}` });
    expect(typeof work?.name).toBe("string");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the offer picker and the posted offer show the card's art from our storage", async () => {
    const context = await newContext(browser);
    const tag = randomBytes(3).toString("hex");
    const signup = await context.request.post(`${server.url}/api/auth/sign-up/email`, {
      data: { name: `art${tag}`, email: `art-${tag}@example.com`, password: "art-pass-12345" },
      headers: { Origin: server.url },
    });
    expect(signup.status()).toBe(200);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/profile`);
    await page.fill("#profile-friend-id-input", "1234-5678-9012-3456");
    await page.locator("form:has(#profile-friend-id-input) button[type=submit]").click();
    await page.getByTestId("profile-friend-id").waitFor();

    const commons = dialga.filter((c) => c.rarity === "◆" && c.cardType === "pokemon");
    const picks: [string, (typeof commons)[number]][] = [
      ["譲れるカードを追加", commons[0]],
      ["欲しいカードを追加", commons.find((c) => c.name !== commons[0].name)!],
    ];
    await page.goto(`${server.url}/trades/new`);
    for (const [label, common] of picks) {
      await page.getByRole("combobox", { name: label }).fill(String(common.name));
      // Same-name prints are told apart by set and number: pick this very card.
      const number = `A2 ${String(common.number).padStart(3, "0")}`;
      const option = page.locator("[role=listbox]:visible [role=option]").filter({ hasText: number }).first();
      await option.waitFor();
      expect(await option.locator("img").getAttribute("src")).toMatch(/^\/uploads\/cards\//);
      await option.click();
    }
    await page.fill("#offer-comment", "画像の確認");
    await page.getByRole("button", { name: "募集を投稿する" }).click();
    await page.waitForURL(/\/trades\/[0-9a-f-]{36}\?done=posted$/);
    const chip = page.locator("article li img").first();
    await chip.waitFor();
    expect(await chip.getAttribute("src")).toMatch(/^\/uploads\/cards\//);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("a broken image URL", () => {
  it("falls back to the placeholder", async () => {
    const server = await startServer({ CARD_IMAGE_BASE_URL: "/no-such-card-art" });
    try {
      const context = await newContext(browser);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${server.url}/cards?pack=dialga`);
      await firstTile(page).and(page.locator('[data-card-art="placeholder"]')).waitFor();
      await expect(page.getByRole("list", { name: "カード一覧" }).locator('[data-card-art="placeholder"] [role=img]').first().isVisible()).resolves.toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await server.stop();
    }
  }, 180_000);
});
