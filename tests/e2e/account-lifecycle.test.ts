import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { postOffer, respond, signUp, twoTradeableCards } from "#tests/support/chat-e2e.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { until } from "#tests/support/wait.ts";

// Mail goes over SMTP to a real SMTP server started here (smtp-server; messages parsed with
// mailparser), so this file runs its own built server with SMTP_URL pointing at it. The suite's
// shared server runs as `npm start` does, without SMTP_URL (mail as .eml files in DATA_DIR/mail).
let smtp: TestSmtpServer;
let server: RunningServer;
let base: string;
let browser: Browser;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: "トレポケ <no-reply@torepoke.test>" });
  base = server.url;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

const mailTo = (to: string, subject: string): ReceivedMail | undefined => smtp.to(to).find((m) => m.subject === subject);

/** Waits for the mail over SMTP and answers its first link (the text part). */
async function linkInMail(to: string, subject: string): Promise<string> {
  await until(() => Boolean(mailTo(to, subject)), `the mail "${subject}" to ${to} over SMTP`, 30_000);
  return /https?:\/\/\S+/.exec(mailTo(to, subject)!.text ?? "")![0];
}

/** Runs one step; when it fails, a screenshot of the page (in the OS temp dir) names what the page showed. */
async function step<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const file = path.join(tmpdir(), `torepoke-e2e-${name.replace(/\W+/g, "-")}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    const alert = await page.getByRole("alert").allInnerTexts().catch(() => []);
    throw new Error(`${name} failed at ${page.url()} (screenshot: ${file}; alerts: ${JSON.stringify(alert)}): ${(err as Error).message}`);
  }
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード", { exact: true }).fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
}

describe("an account people can recover, manage and leave", () => {
  it("パスワードをお忘れですか？ on a slow phone: the address typed as soon as the reset page's address shows is the one sent", async () => {
    // With a client-side navigation the address changed while the login form (whose メールアドレス
    // field took the typing) was still drawn; the reset page then refused an empty address.
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await page.goto(`${base}/login`);
    await page.getByRole("link", { name: "パスワードをお忘れですか？" }).click();
    await page.waitForURL(`${base}/forgot-password`);
    const email = `slow-phone-${Date.now()}@example.com`;
    await step(page, "forgot-password-slow", async () => {
      await page.getByLabel("メールアドレス").fill(email);
      await page.getByRole("button", { name: "再設定メールを送る" }).click();
      await page.getByText("登録されている場合はメールを送信しました").waitFor();
    });
    await context.close();
  }, 120_000);

  it("reset by mail ends the old session; change of address by link; export; deletion leaves the partner's chat with 退会したユーザー", async () => {
    // The user (X) and a trade partner (Y) with a chat room between them, through the site's own API.
    const xContext = await newContext(browser);
    const yContext = await newContext(browser);
    const x = await signUp(xContext.request, base, "退会予定さん", "1111222233334444");
    const y = await signUp(yContext.request, base, "相手さん", "5555666677778888");
    const [give, want] = await twoTradeableCards(yContext.request, base);
    const offerId = await postOffer(yContext.request, base, give, want);
    const roomId = await respond(xContext.request, base, offerId);
    const xPage = await xContext.newPage();
    await xPage.goto(`${base}/profile`);
    await xPage.getByTestId("profile-email-verified").waitFor();

    // Forgotten password, in another browser.
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/login`);
    await page.getByRole("link", { name: "パスワードをお忘れですか？" }).click();
    await page.waitForURL(`${base}/forgot-password`);
    await step(page, "forgot-password", async () => {
      await page.getByLabel("メールアドレス").fill(x.email);
      await page.getByRole("button", { name: "再設定メールを送る" }).click();
      await page.getByText("登録されている場合はメールを送信しました").waitFor();
    });
    await page.getByText("送信元: no-reply@torepoke.test").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const resetLink = await linkInMail(x.email, "【トレポケ】パスワードの再設定");
    // Japanese subject and body arrive MIME-encoded and decode as written.
    const resetMail = mailTo(x.email, "【トレポケ】パスワードの再設定")!;
    expect(resetMail.headerLines.find((h) => h.key === "subject")?.line).toMatch(/=\?UTF-8\?[BQ]\?/i);
    expect(resetMail.from?.value[0]).toMatchObject({ name: "トレポケ", address: "no-reply@torepoke.test" });
    expect(resetMail.text).toContain("退会予定さん");
    expect(resetMail.html).toContain(resetLink.replace(/&/g, "&amp;"));
    expect(resetLink).toMatch(new RegExp(`^${base}/reset-password\\?token=`));
    await page.goto(resetLink);
    await page.getByLabel("新しいパスワード").fill("atarashii-Pass-2026");
    await page.getByRole("button", { name: "パスワードを変更する" }).click();
    await page.waitForURL(`${base}/login?reset=1`);
    await page.getByText("パスワードを再設定しました。新しいパスワードでログインしてください。").waitFor();
    await linkInMail(x.email, "【トレポケ】パスワードを変更しました");

    // The session the user had before the reset is gone.
    await xPage.goto(`${base}/profile`);
    await xPage.waitForURL(/\/login\?redirectTo=/);

    await logIn(page, x.email, "atarashii-Pass-2026");
    await page.waitForURL(`${base}/`);

    // Change of address: confirmed from the new address, the old one told.
    const newEmail = `moved-${Date.now()}@example.com`;
    await page.goto(`${base}/profile/account`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel("新しいメールアドレス").fill(newEmail);
    await page.locator("#account-change-email-password").fill("atarashii-Pass-2026");
    await page.getByRole("button", { name: "確認メールを送る" }).click();
    await page.getByText("新しいメールアドレスに確認メールを送信しました。").waitFor();
    const changeLink = await linkInMail(newEmail, "【トレポケ】新しいメールアドレスの確認");
    await until(() => Boolean(mailTo(x.email, "【トレポケ】メールアドレスの変更手続きがありました")), "the notice to the old address");
    expect(mailTo(x.email, "【トレポケ】メールアドレスの変更手続きがありました")?.text).toContain(newEmail);
    await page.goto(changeLink);
    await page.waitForURL(`${base}/profile/account?emailChanged=1`);
    await page.getByText("メールアドレスを変更しました").waitFor();
    await page.getByText(newEmail).waitFor();

    // Export: the JSON file of everything about the user.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "ダウンロード", exact: true }).click()]);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as {
      account: { email: string };
      profile: { displayName: string; friendId: string };
      chatRooms: { partner: { displayName: string; friendId?: string } }[];
    };
    expect(exported.account.email).toBe(newEmail);
    expect(exported.profile).toMatchObject({ displayName: "退会予定さん", friendId: "1111222233334444" });
    expect(exported.chatRooms).toHaveLength(1);
    expect(exported.chatRooms[0].partner).toEqual({ displayName: "相手さん" });

    await page.setViewportSize({ width: 1280, height: 900 });

    // Deletion: password again, the confirmation ticked.
    await page.getByLabel("確認のためパスワードを入力").fill("atarashii-Pass-2026");
    await page.getByRole("button", { name: "アカウントを削除する" }).click();
    await page.getByText("削除する前に、確認のチェックを入れてください").waitFor();
    await page.getByLabel("確認のためパスワードを入力").fill("atarashii-Pass-2026");
    await page.getByLabel("上記を理解し、アカウントを削除します").check();
    await page.getByRole("button", { name: "アカウントを削除する" }).click();
    await page.waitForURL(`${base}/login?deleted=1`);
    await page.getByText("アカウントを削除しました。").waitFor();
    await until(() => Boolean(mailTo(newEmail, "【トレポケ】退会手続きが完了しました")), "the deletion notice");

    // The partner's chat stays, from 退会したユーザー.
    const yPage = await yContext.newPage();
    await yPage.goto(`${base}/chat/${roomId}`);
    await yPage.getByText("退会したユーザー").first().waitFor();
    expect(await yPage.getByText("退会予定さん").count()).toBe(0);
    // In the English UI the same account is "Deleted user".
    await yContext.addCookies([{ name: "lang", value: "en", url: base }]);
    await yPage.goto(`${base}/chat/${roomId}`);
    await yPage.getByRole("heading", { name: "Chat with Deleted user" }).waitFor();
    expect(await yPage.getByText("退会したユーザー").count()).toBe(0);
    expect(y.name).toBe("相手さん");
    // The one 400 is the deletion sent without its confirmation ticked, on purpose above.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(problems.filter((p) => /status of 400/.test(p))).toHaveLength(1);
    await Promise.all([context.close(), xContext.close(), yContext.close()]);
  }, 240_000);
});

describe("without SMTP_URL, as `npm start` runs", () => {
  it("the reset flow completes with the link from the .eml file in DATA_DIR/mail (README)", async () => {
    // The suite's shared server has no SMTP_URL: every mail is a file in DATA_DIR/mail.
    const shared = inject("baseUrl");
    const mailDir = path.join(inject("dataDir"), "mail");
    // Signed up elsewhere (that context keeps the session); the reset happens in a signed-out browser.
    const signUpContext = await newContext(browser);
    const user = await signUp(signUpContext.request, shared, "ファイル派", "3333444455556666");
    await signUpContext.close();
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${shared}/login`);
    await page.getByRole("link", { name: "パスワードをお忘れですか？" }).click();
    await page.waitForURL(`${shared}/forgot-password`);
    await step(page, "forgot-password-eml", async () => {
      await page.getByLabel("メールアドレス").fill(user.email);
      await page.getByRole("button", { name: "再設定メールを送る" }).click();
      await page.getByText("登録されている場合はメールを送信しました").waitFor();
    });
    let link: string | undefined;
    await until(
      async () => {
        let files: string[] = [];
        try {
          files = readdirSync(mailDir).filter((f) => f.endsWith(".eml"));
        } catch {
          return false;
        }
        for (const file of files) {
          const mail = await simpleParser(readFileSync(path.join(mailDir, file)));
          const to = Array.isArray(mail.to) ? mail.to : [mail.to];
          if (mail.subject === "【トレポケ】パスワードの再設定" && to.some((a) => a?.value.some((v) => v.address === user.email))) link = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
        }
        return Boolean(link);
      },
      "the reset mail as a .eml file",
      30_000,
    );
    expect(link).toMatch(new RegExp(`^${shared}/reset-password\\?token=`));
    await page.goto(link!);
    await page.getByLabel("新しいパスワード").fill("file-Based-Reset-2026");
    await page.getByRole("button", { name: "パスワードを変更する" }).click();
    await page.waitForURL(`${shared}/login?reset=1`);
    await logIn(page, user.email, "file-Based-Reset-2026");
    await page.waitForURL(`${shared}/`);
    await context.close();
  }, 120_000);
});
