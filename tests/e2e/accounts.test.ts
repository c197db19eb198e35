import { spawnSync } from "node:child_process";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { until } from "#tests/support/wait.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { startServer } from "#tests/support/server.ts";

const baseUrl = inject("baseUrl");
const root = path.resolve(import.meta.dirname, "../..");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function signUpThroughForm(page: Page, base: string, email: string, displayName: string, password = "kouKan-pass-2026") {
  await page.goto(`${base}/signup`);
  await page.getByLabel("表示名").fill(displayName);
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "登録する" }).click();
}

async function logInThroughForm(page: Page, email: string, password = "kouKan-pass-2026") {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
}

describe("accounts", () => {
  it("sign up → profile → friend ID in full-width digits saved normalised → log out → guard → log in → back to profile", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const email = uniqueEmail("e2e-flow");

    await page.goto(`${baseUrl}/signup`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await signUpThroughForm(page, baseUrl, email, "ピカチュウ好き");
    await page.waitForURL(`${baseUrl}/profile`);
    await expect(page.getByTestId("profile-display-name").textContent()).resolves.toBe("ピカチュウ好き");
    await expect(page.getByText(email).count()).resolves.toBe(1);
    await expect(page.getByRole("link", { name: "プロフ" }).count()).resolves.toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The session cookie: HttpOnly, SameSite=Lax (Secure only under https; this server is http).
    const session = (await context.cookies()).find((c) => c.name === "torepoke.session_token");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");

    // A wrong friend ID is refused at the field and nothing changes.
    await page.getByRole("textbox", { name: "フレンドID" }).fill("1234-5678");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("フレンドIDは16桁の数字で入力してください").waitFor();
    await expect(page.getByText("未設定").count()).resolves.toBe(1);

    await page.getByRole("textbox", { name: "フレンドID" }).fill("１２３４　５６７８－９０１２－３４５６");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("プロフィールを保存しました").waitFor();
    await page.getByTestId("profile-friend-id").waitFor();
    await expect(page.getByTestId("profile-friend-id").textContent()).resolves.toBe("1234-5678-9012-3456");
    await page.reload();
    await expect(page.getByTestId("profile-friend-id").textContent()).resolves.toBe("1234-5678-9012-3456");
    await expect(page.getByRole("button", { name: "フレンドIDをコピー" }).count()).resolves.toBe(1);

    await page.getByRole("button", { name: "ログアウト" }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole("link", { name: "ログイン" }).waitFor();
    expect((await context.cookies()).find((c) => c.name === "torepoke.session_token")).toBeUndefined();

    const guarded = await page.goto(`${baseUrl}/profile`);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/profile");
    expect(guarded?.status()).toBe(200);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await logInThroughForm(page, email, "wrong-password");
    await page.getByText("メールアドレスまたはパスワードが正しくありません").waitFor();
    await logInThroughForm(page, email);
    await page.waitForURL(`${baseUrl}/profile`);
    await expect(page.getByTestId("profile-display-name").textContent()).resolves.toBe("ピカチュウ好き");
    // The wrong password answered 400, as it should; nothing else went wrong.
    expect(problems.filter((p) => !/status of 400 \(Bad Request\)/.test(p))).toEqual([]);
    await context.close();
  });

  it("sign-up errors appear at the field: duplicate e-mail, short password, HTML in the name kept as text", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = uniqueEmail("e2e-dup");
    await signUpThroughForm(page, baseUrl, email, "一人目");
    await page.waitForURL(`${baseUrl}/profile`);
    await page.getByRole("button", { name: "ログアウト" }).click();
    await page.waitForURL(`${baseUrl}/`);

    await signUpThroughForm(page, baseUrl, email, "二人目");
    await page.getByText("このメールアドレスはすでに登録されています").waitFor();

    await signUpThroughForm(page, baseUrl, uniqueEmail("e2e-short"), "短い", "short");
    await page.getByText("パスワードは8〜128文字で入力してください").waitFor();

    const html = "<b>太字</b>";
    await signUpThroughForm(page, baseUrl, uniqueEmail("e2e-html"), html);
    await page.getByText("表示名に < や > は使用できません").waitFor();
    await expect(page.getByLabel("表示名").inputValue()).resolves.toBe(html);
    await expect(page.locator("main b").count()).resolves.toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("a sign-up form sent before its checks have loaded waits for them: a valid one is then sent, a short password is refused in the browser", async () => {
    // The form's schema loads when the form is first focused; here the values are set and the
    // form sent without any focus (a password manager, a script), so the check is not there yet.
    const sendUnfocused = async (page: Page, email: string, password: string) => {
      await page.goto(`${baseUrl}/signup`);
      // Hydrated: React has put its props on the form and committed the hydration. (Its props are
      // there as soon as React has rendered the form, which can be a moment before the commit; a
      // submission in between is not React's yet, and the browser would post the form itself.)
      await page.waitForFunction(() => {
        const form = document.querySelector("main form");
        const fiberKey = form ? Object.keys(form).find((key) => key.startsWith("__reactFiber")) : undefined;
        if (!form || !fiberKey || !Object.keys(form).some((key) => key.startsWith("__reactProps"))) return false;
        type Fiber = { return: Fiber | null; tag: number; stateNode: { current?: Fiber } };
        let fiber = (form as unknown as Record<string, Fiber>)[fiberKey];
        while (fiber.return) fiber = fiber.return;
        // The tree the form was hydrated in is the root's current tree: committed.
        return fiber.tag === 3 && fiber.stateNode.current === fiber;
      });
      await page.evaluate(
        ({ email, password }) => {
          const form = document.querySelector<HTMLFormElement>("main form")!;
          const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
          field("displayName").value = "先に送信";
          field("email").value = email;
          field("password").value = password;
          form.requestSubmit(form.querySelector<HTMLButtonElement>("button[type=submit]"));
        },
        { email, password },
      );
    };
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await sendUnfocused(page, uniqueEmail("e2e-early"), "kouKan-pass-2026");
    await page.waitForURL(`${baseUrl}/profile`);
    await expect(page.getByTestId("profile-display-name").textContent()).resolves.toBe("先に送信");
    await context.close();

    const second = await newContext(browser);
    const refused = await second.newPage();
    const posts: string[] = [];
    refused.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    await sendUnfocused(refused, uniqueEmail("e2e-early-short"), "short");
    await refused.getByText("パスワードは8〜128文字で入力してください").waitFor();
    // No sign-up request at all (the page form posts to /signup.data once hydrated).
    expect(posts.filter((path) => path.startsWith("/signup"))).toEqual([]);
    expect(problems).toEqual([]);
    await second.close();

    // The checks cannot be loaded (a lost connection, a new deployment): the form is sent once,
    // however often it is pressed, and the server's check answers.
    const third = await newContext(browser);
    const unchecked = await third.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await unchecked.route(/\/assets\/[^/]*schema[^/]*\.js$/, async (route) => {
      asked = true;
      await held;
      await route.abort();
    });
    const sent: string[] = [];
    unchecked.on("request", (request) => {
      if (request.method() === "POST") sent.push(new URL(request.url()).pathname);
    });
    await sendUnfocused(unchecked, uniqueEmail("e2e-unchecked"), "short");
    await until(() => asked, "the checks asked for");
    // Pressed again while they load: nothing more is sent.
    await unchecked.evaluate(() => document.querySelector<HTMLFormElement>("main form")!.requestSubmit(document.querySelector<HTMLButtonElement>("main form button[type=submit]")));
    release();
    await unchecked.getByText("パスワードは8〜128文字で入力してください").waitFor();
    expect(sent.filter((path) => path.startsWith("/signup"))).toEqual(["/signup.data"]);
    await third.close();
  });

  it("without JavaScript the server gives the same field errors and signs up", async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await signUpThroughForm(page, baseUrl, uniqueEmail("e2e-nojs"), "<i>斜体</i>");
    await page.getByText("表示名に < や > は使用できません").waitFor();
    expect(new URL(page.url()).pathname).toBe("/signup");
    await expect(page.locator("main i").count()).resolves.toBe(0);
    await page.getByLabel("表示名").fill("スクリプトなし");
    await page.getByLabel("パスワード").fill("kouKan-pass-2026");
    await page.getByRole("button", { name: "登録する" }).click();
    await page.waitForURL(`${baseUrl}/profile`);
    await expect(page.getByTestId("profile-display-name").textContent()).resolves.toBe("スクリプトなし");
    await context.close();
  });

  it("only follows a same-site redirectTo after logging in", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = uniqueEmail("e2e-redirect");
    await signUpThroughForm(page, baseUrl, email, "リダイレクト");
    await page.waitForURL(`${baseUrl}/profile`);
    await page.getByRole("button", { name: "ログアウト" }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent("//evil.example/steal")}`);
    await logInThroughForm(page, email);
    await page.waitForURL(`${baseUrl}/`);
    expect(new URL(page.url()).host).toBe(new URL(baseUrl).host);
    await context.close();
  });
});

describe("site shell", () => {
  it("on a phone the menu toggle opens and closes it, Escape closes it, and choosing a link closes it", async () => {
    const context = await newContext(browser, PHONE);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
    const toggle = page.getByRole("button", { name: "メニューを開く" });
    const articles = page.getByRole("navigation", { name: "メインメニュー" }).getByRole("link", { name: "記事" });
    expect(await articles.isVisible()).toBe(false);

    await toggle.click();
    const close = page.getByRole("button", { name: "メニューを閉じる" });
    expect(await close.getAttribute("aria-expanded")).toBe("true");
    expect(await articles.isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await close.click();
    expect(await page.getByRole("button", { name: "メニューを開く" }).getAttribute("aria-expanded")).toBe("false");
    expect(await articles.isVisible()).toBe(false);

    await page.getByRole("button", { name: "メニューを開く" }).click();
    await page.keyboard.press("Escape");
    expect(await articles.isVisible()).toBe(false);
    // Focus goes back to the toggle.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"))).toBe("site-menu");

    await page.getByRole("button", { name: "メニューを開く" }).click();
    await articles.click();
    await page.waitForURL(`${baseUrl}/articles`);
    expect(await page.getByRole("button", { name: "メニューを開く" }).getAttribute("aria-expanded")).toBe("false");
    expect(await articles.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the header links the video channel in a new tab, safely", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    const video = page.getByRole("link", { name: /動画チャンネル/ });
    expect(await video.getAttribute("target")).toBe("_blank");
    expect(await video.getAttribute("rel")).toBe("noopener noreferrer");
    await context.close();
  });

  it("switches to English, keeps it on the next request, and back to Japanese", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${baseUrl}/terms`, { waitUntil: "networkidle" });
    expect(await page.getAttribute("html", "lang")).toBe("ja");
    // docs/product-rules.md §4: the body carries a marker only while the language is not ja.
    expect(await page.evaluate(() => [document.body.classList.contains("translated"), document.body.dataset.translated ?? null])).toEqual([false, null]);
    await page.getByRole("button", { name: "EN" }).click();
    await page.getByRole("heading", { level: 1, name: "Terms of use" }).waitFor();
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.evaluate(() => [document.body.classList.contains("translated"), document.body.dataset.translated ?? null])).toEqual([true, "en"]);
    expect(new URL(page.url()).pathname).toBe("/terms");

    // The server renders the choice (cookie) on a fresh request.
    const response = await page.goto(`${baseUrl}/login`);
    const html = (await response?.text()) ?? "";
    expect(html).toContain('<html lang="en"');
    expect(html).toMatch(/<body class="[^"]*\btranslated\b[^"]*" data-translated="en">/);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Log in");
    await expect(page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Card database" }).count()).resolves.toBe(1);
    expect(await page.title()).toMatch(/^Log in \| トレポケ$/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "JA" }).click();
    await page.getByRole("heading", { level: 1, name: "ログイン" }).waitFor();
    expect(await page.getAttribute("html", "lang")).toBe("ja");
    expect(await page.evaluate(() => [document.body.classList.contains("translated"), document.body.dataset.translated ?? null])).toEqual([false, null]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the footer links HOME, privacy policy and terms with the copyright line", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/privacy-policy`);
    const footer = page.getByRole("contentinfo");
    for (const name of ["HOME", "プライバシーポリシー", "利用規約"]) {
      await expect(footer.getByRole("link", { name }).count()).resolves.toBe(1);
    }
    await expect(footer.textContent()).resolves.toContain(`© ${new Date().getFullYear()} トレポケ`);
    await expect(page.getByRole("heading", { level: 2, name: "4. Cookieについて" }).count()).resolves.toBe(1);
    await context.close();
  });
});

describe("admin gate", () => {
  it("signed out: 401 ログインが必要です; signed in without rights: 403 管理者権限がありません; no footer", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const anonymous = await page.goto(`${baseUrl}/admin`);
    expect(anonymous?.status()).toBe(401);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("ログインが必要です");
    await expect(page.getByRole("link", { name: "ログインする" }).count()).resolves.toBe(1);
    await expect(page.getByRole("contentinfo").count()).resolves.toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await signUpThroughForm(page, baseUrl, uniqueEmail("e2e-user"), "一般ユーザー");
    await page.waitForURL(`${baseUrl}/profile`);
    const forbidden = await page.goto(`${baseUrl}/admin?tab=database`);
    expect(forbidden?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("管理者権限がありません");
    await expect(page.getByTestId("stat-users").count()).resolves.toBe(0);
    expect(problems.filter((p) => !/40[13]/.test(p))).toEqual([]);
    await context.close();
  });

  it("an admin granted by the CLI sees the Database counts change after a new sign-up", async () => {
    // The embedded database belongs to one process: stop the server for the CLI, as an operator would.
    const first = await startServer();
    const email = uniqueEmail("e2e-admin");
    const context = await newContext(browser);
    const signUpPage = await context.newPage();
    await signUpThroughForm(signUpPage, first.url, email, "管理者");
    await signUpPage.waitForURL(`${first.url}/profile`);
    // Close the tab before the server goes away (its route discovery would fail loudly).
    await signUpPage.close();
    expect(await first.stop()).toBe(0);

    const cli = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["scripts/admin.ts", "grant", email], {
      cwd: root,
      env: { ...process.env, DATA_DIR: first.dataDir },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(cli.stderr).toBe("");
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain(`${email} is now an administrator.`);

    const server = await startServer({ DATA_DIR: first.dataDir, PORT: String(first.port) });
    const page = await context.newPage();
    const problems = watchConsole(page);
    try {
      const admin = await page.goto(`${server.url}/admin`);
      expect(admin?.status()).toBe(200);
      // Articles is the default tab; the selected tab is in the URL and the tablist is keyboard-operable.
      const articlesTab = page.getByRole("tab", { name: "記事管理" });
      expect(await articlesTab.getAttribute("aria-selected")).toBe("true");
      await expect(page.getByRole("tab").count()).resolves.toBe(8); // docs/product-rules.md §2's five tabs plus 通報 (trade reports), アクセス解析 and トレードルール
      await expect(page.getByRole("contentinfo").count()).resolves.toBe(0);
      await articlesTab.focus();
      await page.keyboard.press("ArrowRight");
      await page.waitForURL(`${server.url}/admin?tab=database`);
      await page.getByRole("tab", { name: "データベース", selected: true }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("データベース");
      const users = page.getByTestId("stat-users").locator("dd");
      await users.waitFor();
      const before = Number((await users.textContent())?.replace(/,/g, ""));
      expect(before).toBeGreaterThanOrEqual(1);
      expect(await seriousA11yViolations(page)).toEqual([]);

      const other = await newContext(browser);
      const otherPage = await other.newPage();
      await signUpThroughForm(otherPage, server.url, uniqueEmail("e2e-new"), "新人");
      await otherPage.waitForURL(`${server.url}/profile`);
      await other.close();

      await page.reload();
      await users.waitFor();
      expect(Number((await users.textContent())?.replace(/,/g, ""))).toBe(before + 1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.stop();
    }
  }, 180_000); // two server starts and the CLI's own start: a minute is tight on a busy machine
});

describe("HTTP contracts of accounts", () => {
  it("refuses a state-changing request from another origin with 403 JSON", async () => {
    for (const target of ["/logout", "/profile", "/api/auth/sign-out"]) {
      const res = await fetch(`${baseUrl}${target}`, { method: "POST", headers: { origin: "https://evil.example" }, redirect: "manual" });
      expect(res.status, target).toBe(403);
      expect(await res.json()).toEqual({ error: "不正なリクエストです（送信元を確認できません）", code: "csrf" });
    }
  });

  it("answers malformed JSON to the auth API with a clear 400", async () => {
    const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: baseUrl, "content-type": "application/json" },
      body: '{"email": "x@example.com", "password": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("リクエストの形式が正しくありません");
  });

  it("rejects overlong and control-character sign-ups and stores nothing", async () => {
    const email = uniqueEmail("e2e-bad");
    for (const body of [
      { email, password: "kouKan-pass-2026", name: "x".repeat(500) },
      { email, password: "kouKan-pass-2026", name: "bad\u0000name" },
      { email, password: "p".repeat(10_000), name: "ok" },
    ]) {
      const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { origin: baseUrl, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
    }
    const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026" }),
    });
    expect(signIn.status).toBe(401);
  });
});
