import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, headless, with nothing reaching out to the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * The lines Chromium itself logs for a page's chat socket while the browser is offline (DevTools'
 * network emulation): a connection that fails, or one the socket client gives up on while it is
 * still connecting. Expected in a test that takes a page offline, nowhere else.
 */
export const OFFLINE_SOCKET_FAILURE =
  /^(error: WebSocket connection to '[^']+' failed: .*net::ERR_INTERNET_DISCONNECTED|warning: WebSocket connection to '[^']+' failed: WebSocket is closed before the connection is established\.)$/;

/**
 * Collects console errors and page errors so a test can fail on them (CONVENTIONS.md: a
 * console error during a test is a failure unless expected). Failed image loads are expected:
 * card images are not available offline and fall back to placeholders.
 */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error" && msg.type() !== "warning") return;
    const text = msg.text();
    if (/Failed to load resource/.test(text) && /404|ERR_/.test(text)) return;
    problems.push(`${msg.type()}: ${text}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

/** axe scan of the current page: the serious and critical violations, as readable lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

export async function newContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: "ja-JP", timezoneId: "Asia/Tokyo", ...options });
}

/**
 * Opens the phone menu. The toggle works once the page has hydrated, and a click that lands before
 * that does nothing; so this clicks again until the menu says it is open.
 */
export async function openPhoneMenu(page: Page): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await page.getByRole("button", { name: "メニューを開く" }).click({ timeout: 5_000 }).catch(() => undefined);
    const opened = await page
      .getByRole("button", { name: "メニューを閉じる" })
      .waitFor({ timeout: 2_000 })
      .then(() => true)
      .catch(() => false);
    if (opened) return;
    if (Date.now() > deadline) throw new Error("the phone menu did not open");
  }
}
