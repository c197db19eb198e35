import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../app/db/schema/users";
import { seedCatalogue } from "../../app/features/cards/catalogue.server";
import { suggestDescription, suggestSeo } from "../../app/features/seo/suggest.server";
import { CLIENT_IP_HEADER, getAuth } from "../../app/features/users/auth.server";
import { loadEnv, type Env } from "../../app/lib/env.server";
import { action } from "../../app/routes/api.admin.seo.suggest";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

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
    expect(unbroken.length).toBe(120);
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
