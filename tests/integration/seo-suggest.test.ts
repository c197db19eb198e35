import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decks } from "#app/db/schema/decks.ts";
import { users } from "#app/db/schema/users.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { suggestDescription, suggestSeo } from "#app/features/seo/suggest.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action } from "#app/routes/api.admin.seo.suggest.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "k".repeat(40), AUTH_RATE_LIMIT_MAX: "1000" });
  context = { db: database.db, env, cspNonce: "n" };
  await seedCatalogue(database.db);
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const ARTICLE = `# ピカチュウexデッキの回し方

ぴかちゅうexは雷デッキの主役です。ﾋﾟｶﾁｭｳexを序盤から育て、ゼブライカで雷エネルギーを加速します。後半はピカチュウexのサークルサーキットでサイドを取りきりましょう。

[[card:A1-094]]

## 相性の良いカード
ゼブライカとピカチュウexの組み合わせは、ミュウツーex相手にも強いです。詳しくはhttps://example.com/guide を参照。`;

describe("suggestSeo", () => {
  it("finds card and Pokémon names in any kana or width form and adds frequent content words", async () => {
    const { keywords } = await suggestSeo(database.db, { title: "ピカチュウexデッキの回し方", content: ARTICLE });
    expect(keywords[0]).toBe("ピカチュウex");
    expect(keywords).toContain("ゼブライカ");
    expect(keywords).toContain("ミュウツーex");
    expect(keywords).toContain("デッキ");
    expect(keywords.length).toBeLessThanOrEqual(10);
    expect(new Set(keywords).size).toBe(keywords.length);
    // Parts of names already listed and function words are not keywords.
    expect(keywords).not.toContain("ピカチュウ");
    expect(keywords).not.toContain("です");
  });

  it("writes a description of whole sentences up to 120 characters, without markup, blocks or URLs", async () => {
    const { metaDescription } = await suggestSeo(database.db, { title: "t", content: ARTICLE });
    expect(metaDescription.length).toBeLessThanOrEqual(120);
    expect(metaDescription.startsWith("ピカチュウexデッキの回し方ぴかちゅうexは雷デッキの主役です。")).toBe(false);
    expect(metaDescription).toMatch(/^ぴかちゅうexは雷デッキの主役です。/);
    expect(metaDescription.endsWith("。")).toBe(true);
    expect(metaDescription).not.toMatch(/[#*[\]]|https?:/);
  });

  it("cuts one long sentence at a clause boundary, never past 120 characters", () => {
    const long = `${"とても長い説明が続きます、".repeat(12)}終わり。`;
    const description = suggestDescription("", long);
    expect(description.length).toBeLessThanOrEqual(120);
    expect(description.endsWith("…")).toBe(true);
    expect(description.slice(0, -1).endsWith("す")).toBe(true);
    const unbroken = suggestDescription("", "あ".repeat(300));
    expect(unbroken.length).toBeLessThanOrEqual(120);
    expect(unbroken.length).toBeGreaterThan(100);
    expect(unbroken.endsWith("…")).toBe(true);
  });

  it("leaves out function words and inflected words (同じ, 向け, 使う), however often they come", async () => {
    const text = "初心者向けの構築です。同じカードを2枚使う。初心者向けに同じ動きを使う。同じ向きで使う。初心者向けの解説。";
    const { keywords } = await suggestSeo(database.db, { title: "初心者向け", content: text });
    for (const word of ["同じ", "向け", "使う", "向き"]) expect(keywords).not.toContain(word);
    expect(keywords).toContain("初心者");
  });

  it("puts public deck names first, with card and Pokémon names, before other words", async () => {
    await database.db.insert(decks).values({ slug: "seo-deck-name", name: "雷バチバチ速攻", tier: 1, category: "deck-recipe", isPublic: true });
    await database.db.insert(decks).values({ slug: "seo-hidden-deck", name: "秘密の下書きデッキ", tier: 1, category: "deck-recipe", isPublic: false });
    const text = "今回は雷バチバチ速攻を紹介します。環境では環境トップの環境デッキです。ゼブライカが鍵。秘密の下書きデッキは触れません。";
    const { keywords } = await suggestSeo(database.db, { title: "デッキ紹介", content: text });
    expect(keywords.slice(0, 2).sort()).toEqual(["ゼブライカ", "雷バチバチ速攻"].sort());
    expect(keywords).not.toContain("秘密の下書きデッキ");
  });

  it("never leaves an empty label or a stray full stop, and ends a Japanese line with 。", () => {
    const content = "今週のおすすめカード:\n\n[[card:A1-094]]\n\n対戦相手を探すならフレンドID交換\n主役はピカチュウex";
    const description = suggestDescription("t", content);
    expect(description).toBe("対戦相手を探すならフレンドID交換。主役はピカチュウex。");
    expect(description).not.toMatch(/[:：]\.|[:：]。|\. /);
  });

  it("never cuts a sentence inside a word", () => {
    const description = suggestDescription("", "ピカチュウを使う".repeat(30));
    expect(description.length).toBeLessThanOrEqual(120);
    expect(description).toMatch(/(使う|を)…$/);
    expect(description).not.toMatch(/使…$/);
  });

  it("falls back to the title when the text has no sentence", () => {
    expect(suggestDescription("新パック情報まとめ", "")).toBe("新パック情報まとめ");
  });
});

describe("POST /api/admin/seo/suggest", () => {
  async function adminCookie(): Promise<string> {
    const email = `seo-${Date.now()}@example.com`;
    const res = await getAuth(database.db, env).handler(
      new Request(`${SITE}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.6.0.1" },
        body: JSON.stringify({ email, password: "kouKan-pass-2026", name: "SEO" }),
      }),
    );
    await database.db.update(users).set({ role: "admin" }).where(eq(users.email, email));
    return res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0];
  }
  const call = (cookie: string, body: unknown) =>
    (action({ request: new Request(`${SITE}/api/admin/seo/suggest`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) }), context, params: {} } as never) as Promise<Response>).catch(
      (thrown: unknown) => {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      },
    );

  it("answers keywords and a description to an admin, 400 for nothing to read, 401 signed out", async () => {
    const cookie = await adminCookie();
    const res = await call(cookie, { title: "ピカチュウexデッキ", content: ARTICLE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { keywords: string[]; metaDescription: string };
    expect(body.keywords).toContain("ピカチュウex");
    expect(body.metaDescription.length).toBeGreaterThan(10);
    const empty = await call(cookie, { title: " ", content: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: "タイトルか本文を入力してください", code: "suggest_empty" });
    expect((await call("", { title: "x", content: "y" })).status).toBe(401);
  });
});
