import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, openPhoneMenu, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { LINE_TEST_CLIENT_ID, LINE_TEST_CLIENT_SECRET, startLineStandIn, type LineUser } from "#tests/support/line-stand-in.ts";
import { freePort, startServer, type RunningServer } from "#tests/support/server.ts";
import { until } from "#tests/support/wait.ts";

// Issue 42: LINEでログイン on a phone, against an OpenID Connect server standing in for LINE.
let browser: Browser;
let server: RunningServer;
let line: Awaited<ReturnType<typeof startLineStandIn>>;
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const shot = (name: string) => path.join(tmpdir(), `line-login-${name}.png`);

beforeAll(async () => {
  const port = await freePort();
  line = await startLineStandIn(`http://127.0.0.1:${port}`);
  server = await startServer({ PORT: String(port), NODE_ENV: "test", LINE_CLIENT_ID: LINE_TEST_CLIENT_ID, LINE_CLIENT_SECRET: LINE_TEST_CLIENT_SECRET, LINE_TEST_ORIGIN: line.origin });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await line?.close();
});

const lineUser = (name: string, email?: string): LineUser => ({ sub: `U${randomBytes(16).toString("hex")}`, name, email });

async function pressLine(page: Page) {
  await page.getByRole("button", { name: "LINEでログイン" }).click();
}

/** The verification link the server mailed to `email` (DATA_DIR/mail without SMTP_URL). */
async function mailedLink(email: string): Promise<string> {
  let link: string | undefined;
  await until(
    async () => {
      const dir = path.join(server.dataDir, "mail");
      for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".eml")) : []) {
        const mail = await simpleParser(readFileSync(path.join(dir, file)));
        const to = Array.isArray(mail.to) ? mail.to : [mail.to];
        if (to.some((a) => a?.value.some((v) => v.address?.toLowerCase() === email))) link = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mail.text ?? "")?.[0] ?? link;
      }
      return Boolean(link);
    },
    `the verification mail to ${email}`,
  );
  return link!;
}

async function logOut(page: Page) {
  await openPhoneMenu(page);
  await page.getByRole("button", { name: "ログアウト" }).click();
  await page.waitForURL(`${server.url}/`);
}

describe("LINEでログイン on a phone", () => {
  it("a new player signs up with LINE, sets a friend ID, logs out and logs in with LINE again; unlinking the only way in is refused", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const player = lineUser("ライン太郎", `taro-${randomBytes(3).toString("hex")}@example.com`);
    line.signInAs(player);

    await page.goto(`${server.url}/signup`);
    // First on the phone's screen: above the e-mail form.
    const button = page.getByRole("button", { name: "LINEでログイン" });
    const email = page.getByLabel("メールアドレス");
    expect((await button.boundingBox())!.y).toBeLessThan((await email.boundingBox())!.y);
    expect((await button.boundingBox())!.y + 48).toBeLessThan(844);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("signup-phone"), fullPage: true });
    await pressLine(page);
    await page.waitForURL((url) => url.pathname === "/profile");
    await expect.poll(() => page.locator("#profile-friend-id-input").isVisible()).toBe(true);
    await page.locator("#profile-friend-id-input").fill("1234-5678-9012-3456");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("プロフィールを保存しました").waitFor();
    await page.getByText("ライン太郎").first().waitFor();
    await logOut(page);

    await page.goto(`${server.url}/login`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("login-phone"), fullPage: true });
    await pressLine(page);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/profile`);
    await page.getByText("1234567890123456").or(page.getByText("1234-5678-9012-3456")).first().waitFor();

    await page.goto(`${server.url}/profile/account`);
    const methods = page.getByTestId("login-methods");
    await methods.getByText("LINE", { exact: true }).waitFor();
    await expect.poll(() => methods.textContent()).toMatch(/に連携/);
    await page.getByRole("button", { name: "LINEの連携を解除する" }).click();
    await page.getByRole("alert").filter({ hasText: "ほかにログインする方法がないため、LINEの連携は解除できません" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("account-phone"), fullPage: true });
    // The refused unlink is the only failed request: the page's 409, shown as the alert above.
    expect(problems).toEqual(["error: Failed to load resource: the server responded with a status of 409 (Conflict)"]);
    await context.close();
  });

  it("a LINE player without an e-mail address never sees the placeholder, then adds an address and verifies it", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    line.signInAs(lineUser("アドレスなし"));
    await page.goto(`${server.url}/login`);
    await pressLine(page);
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByText("未設定（LINEでログイン）").waitFor();
    expect(await page.getByTestId("profile-email-verified").textContent()).toBe("メールアドレス未設定");
    expect(await page.content()).not.toContain("no-address.invalid");
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The address is optional: added on the account page, it counts once its link is opened.
    const address = `added-${randomBytes(3).toString("hex")}@example.com`;
    await page.goto(`${server.url}/profile/account`);
    await page.locator("#account-new-email").fill(address);
    await page.getByRole("button", { name: "確認メールを送る" }).click();
    await page.getByText("入力したメールアドレスに確認メールを送信しました。").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(await mailedLink(address));
    await page.goto(`${server.url}/profile`);
    await page.getByText(address).waitFor();
    expect(await page.getByTestId("profile-email-verified").textContent()).toBe("確認済み");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a LINE login whose e-mail belongs to another account asks to link instead of merging", async () => {
    const ownerEmail = `owner-${randomBytes(3).toString("hex")}@example.com`;
    const owner = await newContext(browser);
    const res = await owner.request.post(`${server.url}/api/auth/sign-up/email`, { data: { email: ownerEmail, password: "kouKan-2026-pass", name: "持ち主" }, headers: { origin: server.url } });
    expect(res.ok()).toBe(true);
    await owner.close();

    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    line.signInAs(lineUser("そっくりさん", ownerEmail));
    await page.goto(`${server.url}/login`);
    await pressLine(page);
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("error") === "account_not_linked");
    await page.getByRole("alert").filter({ hasText: "このメールアドレスのアカウントがすでにあります。いつもの方法でログインしてから" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("not-linked-phone"), fullPage: true });
    await context.close();
  });

  it("an e-mail account links LINE on a phone, logs out and logs in with LINE as the same account", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const res = await context.request.post(`${server.url}/api/auth/sign-up/email`, { data: { email: `phone-${randomBytes(3).toString("hex")}@example.com`, password: "kouKan-2026-pass", name: "スマホの持ち主" }, headers: { origin: server.url } });
    expect(res.ok()).toBe(true);
    const linked = lineUser("スマホのLINE");
    line.signInAs(linked);
    await page.goto(`${server.url}/profile/account`);
    await page.locator("#account-link-line-password").fill("kouKan-2026-pass");
    await page.getByRole("button", { name: "LINEを連携する" }).click();
    await page.waitForURL((url) => url.pathname === "/profile/account" && url.searchParams.get("lineLinked") === "1");
    await page.getByText("LINEを連携しました。次からLINEでもログインできます。").waitFor();
    await logOut(page);
    line.signInAs(linked);
    await page.goto(`${server.url}/login`);
    await pressLine(page);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/profile`);
    expect(await page.getByTestId("profile-display-name").textContent()).toBe("スマホの持ち主");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("at 1280×900 the sign-up and log-in pages, the account page of an e-mail account (ログイン方法 with LINE to link) and a LINE player's profile", async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/signup`);
    await page.getByRole("button", { name: "LINEでログイン" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("signup-desktop"), fullPage: true });
    await page.goto(`${server.url}/login`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("login-desktop"), fullPage: true });
    const res = await context.request.post(`${server.url}/api/auth/sign-up/email`, { data: { email: `desk-${randomBytes(3).toString("hex")}@example.com`, password: "kouKan-2026-pass", name: "デスク" }, headers: { origin: server.url } });
    expect(res.ok()).toBe(true);
    await page.goto(`${server.url}/profile/account`);
    await page.getByRole("button", { name: "LINEを連携する" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("account-desktop"), fullPage: true });
    // Linking: the password, then LINE, then back with LINE listed.
    line.signInAs(lineUser("デスクのLINE"));
    await page.locator("#account-link-line-password").fill("kouKan-2026-pass");
    await page.getByRole("button", { name: "LINEを連携する" }).click();
    await page.waitForURL((url) => url.pathname === "/profile/account" && url.searchParams.get("lineLinked") === "1");
    await page.getByText("LINEを連携しました。次からLINEでもログインできます。").waitFor();
    await page.getByRole("button", { name: "LINEの連携を解除する" }).waitFor();
    await context.close();

    // A LINE player without an address: the profile says so instead of showing one.
    const lineContext = await newContext(browser, DESKTOP);
    const linePage = await lineContext.newPage();
    line.signInAs(lineUser("デスクのLINEだけ"));
    await linePage.goto(`${server.url}/login`);
    await pressLine(linePage);
    await linePage.waitForURL((url) => url.pathname === "/profile");
    await linePage.getByText("未設定（LINEでログイン）").waitFor();
    expect(await seriousA11yViolations(linePage)).toEqual([]);
    await linePage.screenshot({ path: shot("profile-line-desktop"), fullPage: true });
    await lineContext.close();
  });
});
