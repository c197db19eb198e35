import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";

const baseUrl = inject("baseUrl");
// An administrator on the e2e server (global-setup.ts ADMIN_EMAILS).
const ADMIN = { email: "admin-e2e@example.com", password: "admin-e2e-password" };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("アクセス解析's time series, at phone and desktop widths", () => {
  it("shows every label whole and at a readable size, the last one too, and a legend naming each line", async () => {
    for (const device of [PHONE, { viewport: { width: 1280, height: 900 } }]) {
      const context = await newContext(browser, device);
      const signedIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, { data: ADMIN, headers: { origin: baseUrl } });
      expect(signedIn.ok()).toBe(true);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/admin?tab=analytics&range=7d`);
      const chart = page.getByTestId("line-chart");
      await chart.waitFor();
      const where = `${device.viewport.width} px`;
      const chartBox = (await chart.boundingBox())!;
      const labels = chart.getByTestId("line-chart-label");
      // Seven days: the first and the last day are both labelled, as 11/30 … 12/06.
      const texts = await labels.allTextContents();
      expect(texts.length, where).toBeGreaterThanOrEqual(3);
      for (const text of texts) expect(text, where).toMatch(/^\d{2}\/\d{2}$/);
      for (const label of [...(await labels.all()), ...(await chart.getByTestId("line-chart-tick").all())]) {
        const box = (await label.boundingBox())!;
        expect(box.x, `${await label.textContent()} at ${where}`).toBeGreaterThanOrEqual(chartBox.x - 1);
        expect(box.x + box.width, `${await label.textContent()} at ${where}`).toBeLessThanOrEqual(chartBox.x + chartBox.width + 1);
        const size = await label.evaluate((element) => parseFloat(getComputedStyle(element).fontSize) * (element.getBoundingClientRect().height / (element as HTMLElement).offsetHeight || 1));
        expect(size, `${await label.textContent()} at ${where}`).toBeGreaterThanOrEqual(12);
      }
      // The last day is the range's end, shown whole.
      const to = await page.getByLabel("終了日").inputValue();
      expect(texts.at(-1), where).toBe(`${to.slice(5, 7)}/${to.slice(8, 10)}`);
      expect(await chart.getByTestId("line-chart-legend").textContent(), where).toBe("訪問者ページビュー");
      expect(await seriousA11yViolations(page), where).toEqual([]);
      expect(problems, where).toEqual([]);
      await context.close();
    }
  });
});
