import path from "node:path";
import type { Browser } from "playwright-core";
import { build, type Rollup } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatContent } from "#app/features/content/format.ts";
import { launchBrowser } from "#tests/support/browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SAMPLE = [
  "# 見出し",
  "詳しくはhttps://example.com/news/1を参照　**「太字」**の直後",
  "[[card:A1-001]]",
  "[[article:missing]]",
  "![図](/uploads/images/1-a.webp)",
  '<img src=x onerror=alert(1)> [x](javascript:alert(1))',
  "```\n<b>code</b>\n```",
].join("\n");

describe("the one formatter in the browser", () => {
  it("bundles for the browser and renders exactly what the server renders", async () => {
    // The editors' preview imports the same module: bundle it as Vite would for the client.
    const output = (await build({
      configFile: false,
      logLevel: "silent",
      build: {
        write: false,
        lib: { entry: path.resolve(import.meta.dirname, "../../app/features/content/format.ts"), formats: ["iife"], name: "torepokeFormat", fileName: "format" },
      },
    })) as Rollup.RollupOutput[];
    const code = output[0].output.find((chunk) => chunk.type === "chunk")!.code;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: code });
    const refs = { cards: [["A1-001", { id: "A1-001", name: "フシギダネ", rarity: "◆", imageUrl: "" }]], images: [["/uploads/images/1-a.webp", { width: 800, height: 600 }]] };
    const inBrowser = await page.evaluate(
      ([source, given]) => {
        const format = (window as unknown as { torepokeFormat: { formatContent: (s: string, r: unknown) => string } }).torepokeFormat;
        return format.formatContent(source, { cards: new Map(given.cards as [string, unknown][]), images: new Map(given.images as [string, unknown][]) });
      },
      [SAMPLE, refs] as const,
    );
    const onServer = formatContent(SAMPLE, { cards: new Map([["A1-001", { id: "A1-001", name: "フシギダネ", rarity: "◆", imageUrl: "" }]]), images: new Map([["/uploads/images/1-a.webp", { width: 800, height: 600 }]]) });
    expect(errors).toEqual([]);
    expect(inBrowser).toBe(onServer);
    expect(inBrowser).toContain('<a href="https://example.com/news/1"');
    expect(inBrowser).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(inBrowser).not.toMatch(/<img[^>]*onerror/);
    await page.close();
  }, 120_000);
});
