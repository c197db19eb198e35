import AxeBuilder from "@axe-core/playwright";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("what anonymous pages run and download", () => {
  it("/login and /signup validate on the client without any CSP violation (no eval probe)", async () => {
    const context = await newContext(browser);
    // Recorded from the first script on, before the app's modules run.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    for (const path of ["/login", "/signup"]) {
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}${path}`);
      await page.waitForFunction(() => document.readyState === "complete");
      // An empty submit runs the zod schema in the browser: its errors appear at the fields.
      await page.locator("form button[type=submit]").last().click();
      await page.getByText("メールアドレスの形式が正しくありません").waitFor();
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([]);
      expect(problems, path).toEqual([]);
      await page.close();
    }
    await context.close();
  });

  it("an anonymous visit to / loads no Socket.IO client and opens no socket", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const scripts: string[] = [];
    const sockets: string[] = [];
    page.on("request", (req) => {
      if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
    });
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => /unread-badge/.test(s))).toEqual([]);
    // The Socket.IO client's engine is in no script this page fetched.
    const bodies = await Promise.all(scripts.map((s) => page.request.get(`${baseUrl}${s}`).then((r) => r.text())));
    expect(bodies.some((b) => b.includes("transport close") || b.includes("EIO="))).toBe(false);
    expect(sockets).toEqual([]);
    await context.close();
  });

  it("the language switch passes axe's aria-allowed-role at desktop and phone widths", async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const context = await newContext(browser, { viewport });
      const page = await context.newPage();
      // Loaded and hydrated: the menu toggle works only once React has its handlers.
      await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
      if (viewport.width < 768) {
        await page.getByRole("button", { name: "メニューを開く" }).click();
        await page.getByRole("button", { name: "メニューを閉じる" }).waitFor();
      }
      const results = await new AxeBuilder({ page }).withRules(["aria-allowed-role"]).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" ")}`), `${viewport.width}px`).toEqual([]);
      // Still a labelled group of two buttons.
      expect(await page.getByRole("group", { name: "表示言語" }).getByRole("button").count()).toBe(2);
      await context.close();
    }
  });
});
