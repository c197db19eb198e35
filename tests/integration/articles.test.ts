import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "#app/db/schema/articles.ts";
import { users } from "#app/db/schema/users.ts";
import { createArticle, setArticleVisibility, updateArticle } from "#app/features/articles/articles.server.ts";
import { ArticleCreateSchema } from "#app/features/articles/articles.schema.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { onChange } from "#app/lib/change-bus.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { loader as articlePage } from "#app/routes/article.tsx";
import { loader as articlesPage } from "#app/routes/articles.tsx";
import { loader as feedLoader } from "#app/routes/articles.feed.ts";
import { action as adminCreate, loader as adminList } from "#app/routes/api.admin.articles.ts";
import { action as adminChange, loader as adminGet } from "#app/routes/api.admin.articles.$id.ts";
import { action as adminVisibility } from "#app/routes/api.admin.articles.$id.visibility.ts";
import { loader as publicList } from "#app/routes/api.articles.ts";
import { loader as publicGet } from "#app/routes/api.articles.$ref.ts";
import { loader as homeLoader } from "#app/routes/home.tsx";
import { loader as partLoader } from "#app/routes/sitemap-part.ts";
import { loader as indexLoader } from "#app/routes/sitemap.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;
let adminCookie: string;
let userCookie: string;
let adminId: string;
let cardId: string;

async function signUp(): Promise<{ cookie: string; email: string; id: string }> {
  const email = `a-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.6.0.1" },
      body: JSON.stringify({ email, password: "kiji-no-himitsu-2026", name: "記事" }),
    }),
  );
  expect(res.status).toBe(200);
  const [row] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, id: row.id, cookie: res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0] };
}

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "a".repeat(40), AUTH_RATE_LIMIT_MAX: "1000", DATA_DIR: "/tmp/torepoke-articles-test" });
  context = { db: database.db, env, cspNonce: "n" };
  await seedCatalogue(database.db);
  cardId = (await cardIndex(database.db)).cards[0].id;
  const admin = await signUp();
  await database.db.update(users).set({ role: "admin" }).where(eq(users.email, admin.email));
  adminCookie = admin.cookie;
  adminId = admin.id;
  userCookie = (await signUp()).cookie;
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const settled = (promise: Promise<unknown>) =>
  promise.then(
    (r) => r as Response,
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      const init = (thrown as { init?: ResponseInit | null; type?: string })?.type === "DataWithResponseInit" ? (thrown as { init: ResponseInit }).init : null;
      if (init) return new Response(null, init);
      throw thrown;
    },
  );
const json = (body: unknown, cookie = adminCookie, method = "POST") => ({
  method,
  headers: { cookie, "content-type": "application/json", origin: SITE },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const call = (fn: (args: never) => unknown, path: string, init: RequestInit = {}, params: Record<string, string> = {}) =>
  settled(Promise.resolve().then(() => fn({ request: new Request(`${SITE}${path}`, init), context, params } as never)));
const create = (body: unknown, cookie = adminCookie) => call(adminCreate as never, "/api/admin/articles", json(body, cookie));
const patch = (id: string, body: unknown) => call(adminChange as never, `/api/admin/articles/${id}`, json(body, adminCookie, "PATCH"), { id });
const base = { title: "新パック「超克の光」速報", category: "news", content: "# 見出し\n本文です。" };
const parse = (input: unknown) => ArticleCreateSchema.parse(input);

describe("article save rules", () => {
  it("creates with createdAt = updatedAt, starts 非公開, stores the typed text and its formatted HTML", async () => {
    const res = await create({ ...base, content: `# 見出し\n[[card:${cardId}]]\n**太字**` });
    expect(res.status).toBe(201);
    const article = (await res.json()) as { id: string; slug: string; isPublic: boolean; createdAt: string; updatedAt: string; revision: number; content: string };
    expect(article.isPublic).toBe(false);
    expect(article.createdAt).toBe(article.updatedAt);
    expect(article.revision).toBe(1);
    const [row] = await database.db.select().from(articles).where(eq(articles.id, article.id));
    expect(row.source).toBe(`# 見出し\n[[card:${cardId}]]\n**太字**`);
    expect(row.html).toContain("<h1>見出し</h1>");
    expect(row.html).toContain(`href="/cards/${cardId}"`);
    expect(row.html).toContain("<strong>太字</strong>");
    expect(row.authorId).toBe(adminId);
  });

  it("refuses missing fields with docs/product-rules.md's messages and writes nothing", async () => {
    const before = (await database.db.select({ id: articles.id }).from(articles)).length;
    const res = await create({ title: " ", content: "", category: "" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fields: Record<string, string> };
    expect(body.fields).toEqual({ title: "タイトルを入力してください", category: "カテゴリーを選択してください", content: "内容を入力してください" });
    expect((await create({ ...base, category: "other" })).status).toBe(400);
    expect((await create({ ...base, title: "x".repeat(201) })).status).toBe(400);
    expect((await create({ ...base, metaDescription: "あ".repeat(201) })).status).toBe(400);
    expect((await create({ ...base, content: "a\u0000b" })).status).toBe(400);
    expect((await create("{oops")).status).toBe(400);
    expect((await call(adminCreate as never, "/api/admin/articles", { ...json(base), headers: { cookie: adminCookie, "content-type": "text/plain" } })).status).toBe(400);
    expect((await create({ ...base, content: "あ".repeat(200_000) })).status).toBe(413);
    expect((await database.db.select({ id: articles.id }).from(articles)).length).toBe(before);
  });

  it("gives a Japanese-only title a working unique slug, and numbers clashes of generated slugs", async () => {
    const a = (await (await create({ ...base, title: "ポケポケ攻略" })).json()) as { id: string; slug: string };
    expect(a.slug).toBe(`article-${a.id.slice(0, 8)}`);
    const b = (await (await create({ ...base, title: "Pikachu ex デッキ" })).json()) as { slug: string };
    const c = (await (await create({ ...base, title: "ＰＩＫＡＣＨＵ　ｅｘ！" })).json()) as { slug: string };
    expect(b.slug).toBe("pikachu-ex");
    expect(c.slug).toBe("pikachu-ex-2");
  });

  it("answers a typed slug clash with a clear 409, and refuses slugs that are not alphanumerics and hyphens", async () => {
    const first = await create({ ...base, slug: "mega-news" });
    expect(first.status).toBe(201);
    const clash = await create({ ...base, slug: "Mega-News" });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({ code: "slug_taken", error: "このスラッグはすでに別の記事で使われています。別のスラッグを入力してください" });
    for (const slug of ["日本語", "a b", "-x", "x-", "a_b", "../x", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"]) {
      const res = await create({ ...base, slug });
      expect(res.status, slug).toBe(400);
    }
  });

  it("updates only updatedAt (createdAt kept), and tells a second save that the article changed", async () => {
    const created = (await (await create(base)).json()) as { id: string; createdAt: string; updatedAt: string; revision: number };
    const first = await patch(created.id, { revision: created.revision, title: "更新後のタイトル" });
    expect(first.status).toBe(200);
    const updated = (await first.json()) as { createdAt: string; updatedAt: string; revision: number; title: string };
    expect(updated.createdAt).toBe(created.createdAt);
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    expect(updated.revision).toBe(2);
    // A second administrator opened revision 1 too.
    const second = await patch(created.id, { revision: created.revision, title: "上書きしようとした" });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: "conflict" });
    const [row] = await database.db.select({ title: articles.title }).from(articles).where(eq(articles.id, created.id));
    expect(row.title).toBe("更新後のタイトル");
    // Two saves racing on the same revision: exactly one wins.
    const results = await Promise.allSettled([
      updateArticle(database.db, env, created.id, { revision: 2, title: "A" }),
      updateArticle(database.db, env, created.id, { revision: 2, title: "B" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("publish/unpublish flips isPublic only and remembers the first publication", async () => {
    const created = await createArticle(database.db, env, parse({ ...base, title: "Flip" }), null);
    const res = await call(adminVisibility as never, `/api/admin/articles/${created.id}/visibility`, json({ isPublic: true }), { id: created.id });
    expect(res.status).toBe(200);
    const row = (await res.json()) as { isPublic: boolean; title: string; updatedAt: string; publishedAt: string };
    expect(row).toMatchObject({ isPublic: true, title: "Flip", updatedAt: created.updatedAt });
    const again = await setArticleVisibility(database.db, env, created.id, false);
    const third = await setArticleVisibility(database.db, env, created.id, true);
    expect(again.isPublic).toBe(false);
    expect(third.publishedAt).toBe(row.publishedAt);
    expect((await call(adminVisibility as never, `/api/admin/articles/${created.id}/visibility`, json({ isPublic: "yes" }), { id: created.id })).status).toBe(400);
  });

  it("accepts docs/product-rules.md's seoKeywords / seoMetaDescription names, normalises keywords, and finds articles by title for the related picker", async () => {
    const res = await create({ ...base, title: "検索できる記事 100%_off", seoKeywords: "ポケポケ、 攻略 ,ポケポケ", seoMetaDescription: " 説明文 " });
    expect(await res.json()).toMatchObject({ keywords: "ポケポケ, 攻略", metaDescription: "説明文" });
    const found = (await (await call(adminList as never, `/api/admin/articles?q=${encodeURIComponent("できる記事 100%_")}`, { headers: { cookie: adminCookie } })).json()) as { articles: { title: string }[] };
    expect(found.articles.map((a) => a.title)).toEqual(["検索できる記事 100%_off"]);
    // % and _ are searched for as characters, not wildcards.
    const none = (await (await call(adminList as never, `/api/admin/articles?q=${encodeURIComponent("%")}`, { headers: { cookie: adminCookie } })).json()) as { articles: unknown[] };
    expect(none.articles).toHaveLength(1);
  });

  it("admin routes answer 401 signed out and 403 for non-admins; unknown ids are 404", async () => {
    expect((await create(base, "")).status).toBe(401);
    expect((await create(base, userCookie)).status).toBe(403);
    expect((await call(adminList as never, "/api/admin/articles", { headers: { cookie: userCookie } })).status).toBe(403);
    expect((await call(adminGet as never, "/api/admin/articles/x", { headers: { cookie: adminCookie } }, { id: "not-a-uuid" })).status).toBe(404);
    const missing = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    expect((await call(adminChange as never, `/api/admin/articles/${missing}`, { method: "DELETE", headers: { cookie: adminCookie } }, { id: missing })).status).toBe(404);
    expect((await patch(missing, { revision: 1, title: "x" })).status).toBe(404);
  });
});

describe("public pages, feed and sitemap", () => {
  let published: { id: string; slug: string };
  let hidden: { id: string; slug: string };

  beforeAll(async () => {
    published = await createArticle(database.db, env, parse({ ...base, title: "Public guide", category: "guide", isPublic: true, keywords: "攻略、デッキ", metaDescription: "説明" }), adminId);
    hidden = await createArticle(database.db, env, parse({ ...base, title: "Hidden guide", category: "guide" }), adminId);
  });

  it("lists public articles only, filtered by category in the URL, with real 404s for bad filters and pages", async () => {
    const page = (await articlesPage({ request: new Request(`${SITE}/articles?category=guide`), context, params: {} } as never)) as { articles: { slug: string }[] };
    expect(page.articles.map((a) => a.slug)).toContain(published.slug);
    expect(page.articles.map((a) => a.slug)).not.toContain(hidden.slug);
    for (const path of ["/articles?category=nope", "/articles?page=0", "/articles?page=99", "/articles?page=x"]) {
      const res = await call(articlesPage as never, path);
      expect(res.status, path).toBe(404);
    }
  });

  it("serves an article by slug, 301s its id URL to the slug, and 404s unknown and unpublished ones", async () => {
    const found = (await articlePage({ request: new Request(`${SITE}/articles/${published.slug}`), context, params: { id: published.slug } } as never)) as { article: { title: string }; preview: boolean };
    expect(found).toMatchObject({ article: { title: "Public guide" }, preview: false });
    const moved = await call(articlePage as never, `/articles/${published.id}`, {}, { id: published.id });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`/articles/${published.slug}`);
    expect((await call(articlePage as never, `/articles/${hidden.slug}`, {}, { id: hidden.slug })).status).toBe(404);
    expect((await call(articlePage as never, "/articles/nothing-here", {}, { id: "nothing-here" })).status).toBe(404);
    expect((await call(publicGet as never, `/api/articles/${hidden.slug}`, {}, { ref: hidden.slug })).status).toBe(404);
    const api = await call(publicGet as never, `/api/articles/${published.slug}`, {}, { ref: published.slug });
    expect(await api.json()).toMatchObject({ title: "Public guide", keywords: "攻略, デッキ" });
  });

  it("lets an administrator preview an unpublished article (marked as a preview)", async () => {
    const preview = (await articlePage({ request: new Request(`${SITE}/articles/${hidden.slug}`, { headers: { cookie: adminCookie } }), context, params: { id: hidden.slug } } as never)) as { preview: boolean };
    expect(preview.preview).toBe(true);
    const asUser = await call(articlePage as never, `/articles/${hidden.slug}`, { headers: { cookie: userCookie } }, { id: hidden.slug });
    expect(asUser.status).toBe(404);
  });

  it("unpublishing makes it 404 at once (the content version moves, caches follow)", async () => {
    const changes: number[] = [];
    const stop = onChange("content", () => changes.push(1));
    const temp = await createArticle(database.db, env, parse({ ...base, title: "Short lived", isPublic: true }), adminId);
    expect((await call(publicGet as never, `/api/articles/${temp.slug}`, {}, { ref: temp.slug })).status).toBe(200);
    await setArticleVisibility(database.db, env, temp.id, false);
    stop();
    expect(changes.length).toBe(2);
    expect((await call(publicGet as never, `/api/articles/${temp.slug}`, {}, { ref: temp.slug })).status).toBe(404);
  });

  it("pages the API with a cursor and refuses a bad one", async () => {
    const first = (await (await call(publicList as never, "/api/articles?limit=1")).json()) as { articles: unknown[]; nextCursor: string };
    expect(first.articles).toHaveLength(1);
    const second = (await (await call(publicList as never, `/api/articles?limit=1&cursor=${first.nextCursor}`)).json()) as { articles: { id: string }[] };
    expect(second.articles[0]?.id).not.toBe((first.articles[0] as { id: string }).id);
    expect((await call(publicList as never, "/api/articles?cursor=zzz")).status).toBe(400);
    // A cursor naming no real time (30 February, year 0000, a bare number) is a 400, not a database error.
    for (const at of ["2026-02-30T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "1"]) {
      const forged = Buffer.from(JSON.stringify([at, (first.articles[0] as { id: string }).id])).toString("base64url");
      expect((await call(publicList as never, `/api/articles?cursor=${forged}`)).status, at).toBe(400);
    }
    expect((await call(publicList as never, "/api/articles?category=bad")).status).toBe(400);
  });

  it("puts public articles in the feed, the sitemap and the home page's 新着記事", async () => {
    const feed = (await feedLoader({ request: new Request(`${SITE}/articles/feed.xml`), context, params: {} } as never)) as Response;
    expect(feed.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await feed.text();
    expect(xml).toContain(`<link rel="alternate" type="text/html" href="${SITE}/articles/${published.slug}"/>`);
    expect(xml).not.toContain(hidden.slug);
    const index = await ((await indexLoader({ request: new Request(`${SITE}/sitemap.xml`), context, params: {} } as never)) as Response).text();
    expect(index).toContain(`${SITE}/sitemaps/articles-1.xml`);
    const part = await ((await partLoader({ request: new Request(`${SITE}/sitemaps/articles-1.xml`), context, params: { part: "articles-1.xml" } } as never)) as Response).text();
    expect(part).toContain(`<loc>${SITE}/articles</loc>`);
    expect(part).toContain(`<loc>${SITE}/articles/${published.slug}</loc>`);
    expect(part).not.toContain(hidden.slug);
    const home = (await homeLoader({ request: new Request(`${SITE}/`), context, params: {} } as never)) as { newestArticles: { slug: string }[] };
    expect(home.newestArticles.map((a) => a.slug)).toContain(published.slug);
  });

  it("re-renders related-article blocks when the article they point at is published or unpublished", async () => {
    const target = await createArticle(database.db, env, parse({ ...base, title: "Target", slug: "target-article" }), adminId);
    const host = await createArticle(database.db, env, parse({ ...base, title: "Host", content: "本文\n[[article:target-article]]", isPublic: true }), adminId);
    const html = async () => (await database.db.select({ html: articles.html }).from(articles).where(eq(articles.id, host.id)))[0].html;
    expect(await html()).toContain("記事が見つかりません");
    await setArticleVisibility(database.db, env, target.id, true);
    expect(await html()).toContain('href="/articles/target-article"');
    await setArticleVisibility(database.db, env, target.id, false);
    expect(await html()).toContain("記事が見つかりません");
  });
});

// What an attacker with an admin session (or a stolen one) could type into every field.
const XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "javascript:alert(1)", "</title><script>alert(1)</script>", "[x](javascript:alert(1))", '<svg onload=alert(1)>'];

describe("stored XSS through any field", () => {
  it("is refused or stored inert in title, slug, keywords, description, content and thumbnail URL", async () => {
    for (const attack of XSS) {
      expect((await create({ ...base, slug: attack })).status).toBe(400);
      expect((await create({ ...base, thumbnailUrl: attack })).status).toBe(400);
      expect((await create({ ...base, thumbnailUrl: `/uploads/x.webp"${attack}` })).status).toBe(400);
      const res = await create({ ...base, title: attack, keywords: attack, metaDescription: attack, content: `${attack}\n\n${attack}`, isPublic: true });
      expect(res.status).toBe(201);
      const { id, slug } = (await res.json()) as { id: string; slug: string };
      const [row] = await database.db.select({ html: articles.html }).from(articles).where(eq(articles.id, id));
      expect(row.html).not.toMatch(/<script|<img[^>]*onerror|<svg|href="javascript:/i);
      const api = (await (await call(publicGet as never, `/api/articles/${slug}`, {}, { ref: slug })).json()) as { html: string; title: string };
      // Typed HTML comes out as escaped text (&lt;…), never as a tag or a script URL.
      expect(api.html).not.toMatch(/<script|<img[^>]*onerror|<svg|href="javascript:/i);
      // The title stays text: React escapes it on the page; the feed escapes it as XML.
      expect(api.title).toBe(attack.trim());
    }
    const feed = await ((await feedLoader({ request: new Request(`${SITE}/articles/feed.xml`), context, params: {} } as never)) as Response).text();
    expect(feed).not.toMatch(/<script|<img|<svg/i);
  });
});
