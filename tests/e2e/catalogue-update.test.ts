import AxeBuilder from "@axe-core/playwright";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signInAdmin } from "#tests/support/e2e-admins.ts";
import { launchBrowser, newContext, PHONE, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
// An administrator on the e2e server (global-setup.ts ADMIN_EMAILS).
const SHOTS = process.env.SHOTS_DIR ?? mkdtempSync(path.join(tmpdir(), "catalogue-update-shots-"));
const DIST = path.resolve("catalogue/pokemon-tcg-pocket-database/dist");

let browser: Browser;
let files: string[];
beforeAll(async () => {
  browser = await launchBrowser();
  // A copy of the vendored files with one set (B4) removed and one card (A1-010) renamed.
  const dir = mkdtempSync(path.join(tmpdir(), "catalogue-copy-"));
  const sets = JSON.parse(readFileSync(path.join(DIST, "sets.json"), "utf8")) as Record<string, { code: string }[]>;
  for (const series of Object.keys(sets)) sets[series] = sets[series].filter((s) => s.code !== "B4");
  const cards = (JSON.parse(readFileSync(path.join(DIST, "cards.json"), "utf8")) as { set: string; number: number; name: string }[])
    .filter((c) => c.set !== "B4")
    .map((c) => (c.set === "A1" && c.number === 10 ? { ...c, name: "Beedrill Renamed" } : c));
  writeFileSync(path.join(dir, "sets.json"), JSON.stringify(sets));
  writeFileSync(path.join(dir, "cards.json"), JSON.stringify(cards));
  files = [path.join(dir, "sets.json"), path.join(dir, "cards.json")];
});
afterAll(async () => {
  await browser?.close();
});


describe("カタログ更新 in カード管理", () => {
  it("previews a copy with one set removed and one card renamed, applies it, keeps the set, and says 変更はありません the second time", async () => {
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/admin?tab=cards`);
    await page.getByLabel("カードデータのファイル").setInputFiles(files);
    await page.getByRole("button", { name: "プレビュー" }).click();
    await page.getByText("新しいセット 0・新しいカード 0・名前の変更 1・レアリティの変更 0・削除 0").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "preview-1280.png"), fullPage: true });
    const axe = await new AxeBuilder({ page }).include("#admin-tabpanel").analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" ")}`)).toEqual([]);
    await page.getByRole("button", { name: "適用", exact: true }).click();
    await page.getByText("適用しました（新しいカード 0枚・名前の変更 1件）").waitFor();

    await page.getByLabel("カードデータのファイル").setInputFiles(files);
    await page.getByRole("button", { name: "プレビュー" }).click();
    await page.getByText("変更はありません").waitFor();

    // The set the copy lacks is still there: a card is never deleted by an update.
    const kept = await page.goto(`${baseUrl}/cards/B4-001`);
    expect(kept?.status()).toBe(200);
    const renamed = await page.goto(`${baseUrl}/cards/A1-010`);
    expect(renamed?.status()).toBe(200);
    expect(await page.content()).toContain("Beedrill Renamed");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("on a phone, a CSV row naming an existing print updates it: the pack's card count stays", async () => {
    const context = await newContext(browser, PHONE);
    await signInAdmin(context, baseUrl);
    const page = await context.newPage();
    // Two limits: two URLs, so the second count is not the first one's cached answer.
    const count = async (limit: number) => ((await (await context.request.get(`${baseUrl}/api/cards?pack=charizard&limit=${limit}`)).json()) as { total?: number }).total;
    const before = await count(1);
    expect(before).toBeGreaterThan(0);
    await page.goto(`${baseUrl}/admin?tab=cards`);
    const dir = mkdtempSync(path.join(tmpdir(), "catalogue-csv-"));
    writeFileSync(path.join(dir, "prints.csv"), "name,rarity,imageUrl,number\nヒトカゲ,◆,https://img.example/a1-033.webp,33\n");
    await page.getByLabel("パック", { exact: true }).first().selectOption("charizard");
    await page.getByLabel("CSVファイル").setInputFiles(path.join(dir, "prints.csv"));
    await page.getByRole("button", { name: "カードを登録" }).click();
    await page.getByText("1件のカードを登録しました").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "cards-tab-390.png"), fullPage: true });
    const axe = await new AxeBuilder({ page }).include("#admin-tabpanel").analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" ")}`)).toEqual([]);
    expect(await count(2)).toBe(before);
    await context.close();
  });
});
