import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { E2E_ADMINS, signInAdmin } from "#tests/support/e2e-admins.ts";

const baseUrl = inject("baseUrl");
// Both are administrators on the e2e server (global-setup.ts ADMIN_EMAILS).
const [FIRST, SECOND] = E2E_ADMINS;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the deck editor, as administrators meet it", () => {
  it("keeps 保存 disabled until name, tier and category are set, names the missing ones beside it, and each at its field on leaving it", async () => {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
      const context = await newContext(browser, { viewport });
      await signInAdmin(context, baseUrl, FIRST);
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${baseUrl}/admin/deck-recipes/new`);
      await page.getByRole("heading", { name: "デッキ作成", level: 1 }).waitFor();
      const save = page.getByRole("button", { name: "保存", exact: true });
      const missing = page.getByTestId("deck-save-missing");
      // SPEC.md §5: the save button is disabled unless name, tier and category are set.
      expect(await save.isDisabled()).toBe(true);
      expect(await missing.textContent()).toBe("保存するには入力してください：デッキ名・Tier・カテゴリー");
      expect(await save.getAttribute("aria-describedby")).toBe(await missing.getAttribute("id"));
      expect(await seriousA11yViolations(page)).toEqual([]);

      const name = page.getByLabel("デッキ名", { exact: true });
      await name.focus();
      await name.press("Tab");
      await page.getByText("デッキ名を入力してください。").waitFor();
      // The messages belong to their fields (screen readers read them with the field).
      expect(await name.getAttribute("aria-invalid")).toBe("true");
      await name.fill("あとで直すデッキ");
      expect(await page.getByText("デッキ名を入力してください。").count()).toBe(0);
      expect(await missing.textContent()).toBe("保存するには入力してください：Tier・カテゴリー");
      await page.getByLabel("Tier", { exact: true }).selectOption("1");
      expect(await save.isDisabled()).toBe(true);
      expect(await missing.textContent()).toBe("保存するには入力してください：カテゴリー");
      // A name of spaces only is no name.
      await page.getByLabel("カテゴリー", { exact: true }).selectOption({ index: 1 });
      await name.fill("   ");
      expect(await save.isDisabled()).toBe(true);
      expect(await missing.textContent()).toBe("保存するには入力してください：デッキ名");
      await name.fill("あとで直すデッキ");
      expect(await save.isDisabled()).toBe(false);
      expect(await missing.count()).toBe(0);
      expect(page.url()).toBe(`${baseUrl}/admin/deck-recipes/new`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it("two administrators edit the same deck: the second save is refused, says so, and keeps the text", async () => {
    const first = await newContext(browser);
    const second = await newContext(browser);
    await signInAdmin(first, baseUrl, FIRST);
    await signInAdmin(second, baseUrl, SECOND);
    const created = await first.request.post(`${baseUrl}/api/admin/decks`, {
      data: { name: `共同編集${randomBytes(2).toString("hex")}`, tier: 2, category: "deck-recipe", energyTypes: ["grass"], cards: [] },
      headers: { origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const problemsA = watchConsole(pageA);
    for (const page of [pageA, pageB]) {
      await page.goto(`${baseUrl}/admin/deck-recipes/edit/${id}`);
      await page.getByLabel("デッキ名", { exact: true }).waitFor();
    }
    await pageA.getByLabel("デッキ名", { exact: true }).fill("一人目の名前");
    await pageA.getByRole("button", { name: "保存", exact: true }).click();
    await pageA.waitForURL(/\/admin\?tab=decks&saved=updated$/);

    await pageB.getByLabel("デッキ名", { exact: true }).fill("二人目の名前");
    await pageB.getByRole("button", { name: "保存", exact: true }).click();
    await pageB.getByRole("alert").filter({ hasText: "このデッキは開いた後に別の管理者が更新しました。" }).waitFor();
    expect(await pageB.getByLabel("デッキ名", { exact: true }).inputValue()).toBe("二人目の名前");
    expect(pageB.url()).toBe(`${baseUrl}/admin/deck-recipes/edit/${id}`);

    // Through the server as any client sees it: the stale revision is a 409 with the Japanese text.
    // A new request context (a new connection): the context's own one has been idle through the
    // page steps above, and the server may be closing it just as it is reused (ECONNRESET).
    const api = await request.newContext({ storageState: await second.storageState() });
    const stale = await api.patch(`${baseUrl}/api/admin/decks/${id}`, {
      data: { name: "古い版から", tier: 2, category: "deck-recipe", cards: [], revision: 1 },
      headers: { origin: baseUrl },
    });
    expect(stale.status()).toBe(409);
    expect(await stale.json()).toMatchObject({ code: "conflict" });
    const stored = (await (await api.get(`${baseUrl}/api/admin/decks/${id}`)).json()) as { name: string; revision: number };
    expect(stored).toMatchObject({ name: "一人目の名前", revision: 2 });
    await api.dispose();
    expect(problemsA).toEqual([]);
    await first.close();
    await second.close();
  });
});

describe("uploads through the server", () => {
  it("refuses an administrator's images past 30 a minute with 429 and a Japanese message", async () => {
    const context = await newContext(browser);
    await signInAdmin(context, baseUrl, SECOND);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#cc3333" } }).png().toBuffer();
    const post = () => context.request.post(`${baseUrl}/api/admin/uploads`, { multipart: { file: { name: "a.png", mimeType: "image/png", buffer: png } }, headers: { origin: baseUrl } });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof post>> | null = null;
    // 61 tries: should the first 30 straddle a minute's boundary, the next minute refuses its 31st.
    for (let i = 0; i < 61; i++) {
      const answer = await post();
      statuses.push(answer.status());
      if (answer.status() === 429) {
        refused = answer;
        break;
      }
    }
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    expect(refused).not.toBeNull();
    expect(await refused!.json()).toMatchObject({ code: "rate_limited", error: "画像のアップロードが多すぎます。しばらく待ってからもう一度お試しください" });
    await context.close();
  });
});
