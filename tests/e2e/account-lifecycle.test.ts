import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "../support/browser";
import { postOffer, respond, signUp, twoTradeableCards } from "../support/chat-e2e";
import { until } from "../support/wait";

// The suite's server runs as `npm start` does, without SMTP_URL: every mail is a .eml file in
// DATA_DIR/mail, which is where a user without a mail server finds the reset link (README).
// Delivery over SMTP to a real SMTP server is covered by tests/integration/outbox-mail.test.ts.
const base = inject("baseUrl");
const mailDir = path.join(inject("dataDir"), "mail");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const parsed = new Map<string, ParsedMail>();
async function mails(): Promise<ParsedMail[]> {
  let files: string[] = [];
  try {
    files = readdirSync(mailDir).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  for (const file of files) if (!parsed.has(file)) parsed.set(file, await simpleParser(readFileSync(path.join(mailDir, file))));
  return [...parsed.values()];
}
const isTo = (mail: ParsedMail, to: string) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((a) => a?.value.some((v) => v.address === to));
const mailTo = async (to: string, subject: string) => (await mails()).find((m) => isTo(m, to) && m.subject === subject);

async function linkInMail(to: string, subject: string): Promise<string> {
  await until(async () => Boolean(await mailTo(to, subject)), `the mail "${subject}" to ${to}`, 30_000);
  return /https?:\/\/\S+/.exec((await mailTo(to, subject))!.text ?? "")![0];
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード", { exact: true }).fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
}

describe("an account people can recover, manage and leave", () => {
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
    await page.getByLabel("メールアドレス").fill(x.email);
    await page.getByRole("button", { name: "再設定メールを送る" }).click();
    await page.getByText("登録されている場合はメールを送信しました").waitFor();
    await page.getByText(/^送信元: no-reply@/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const resetLink = await linkInMail(x.email, "【トレポケ】パスワードの再設定");
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
    await until(async () => Boolean(await mailTo(x.email, "【トレポケ】メールアドレスの変更手続きがありました")), "the notice to the old address");
    expect((await mailTo(x.email, "【トレポケ】メールアドレスの変更手続きがありました"))?.text).toContain(newEmail);
    await page.goto(changeLink);
    await page.waitForURL(`${base}/profile/account?emailChanged=1`);
    await page.getByText("メールアドレスを変更しました").waitFor();
    await page.getByText(newEmail).waitFor();

    // Export: the JSON file of everything about the user.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "ダウンロード" }).click()]);
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
    await until(async () => Boolean(await mailTo(newEmail, "【トレポケ】退会手続きが完了しました")), "the deletion notice");

    // The partner's chat stays, from 退会したユーザー.
    const yPage = await yContext.newPage();
    await yPage.goto(`${base}/chat/${roomId}`);
    await yPage.getByText("退会したユーザー").first().waitFor();
    expect(await yPage.getByText("退会予定さん").count()).toBe(0);
    expect(y.name).toBe("相手さん");
    // The one 400 is the deletion sent without its confirmation ticked, on purpose above.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(problems.filter((p) => /status of 400/.test(p))).toHaveLength(1);
    await Promise.all([context.close(), xContext.close(), yContext.close()]);
  }, 240_000);
});
