import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentRefs } from "#app/db/schema/content-refs.ts";
import { ArticleCreateSchema, ArticleUpdateSchema } from "#app/features/articles/articles.schema.ts";
import { createArticle, deleteArticle, setArticleVisibility, updateArticle } from "#app/features/articles/articles.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action as createDeckAction } from "#app/routes/api.admin.decks.ts";
import { action as deckAction, loader as editLoader } from "#app/routes/api.admin.decks.$id.ts";
import { loader as apiArticleLoader } from "#app/routes/api.articles.$ref.ts";
import { loader as apiDeckLoader } from "#app/routes/api.decks.$slug.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// A text that shows another article or deck (a [[article:…]] / [[deck:…]] block) must show it as
// it is now: after the target is unpublished, deleted, renamed or published again, the public
// answers of the text (GET /api/articles/<slug>, GET /api/decks/<slug>) say so at once.
const SITE = "http://127.0.0.1:3000";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;
let adminCookie: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-content-refs-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  context = { db: database.db, env, cspNonce: "test" } as AppLoadContext;
  adminCookie = await createSessionCookie(database.db, (await createUser(database.db, { role: "admin" })).id, SECRET);
});
afterAll(async () => {
  await database?.close();
});

const LEGAL = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context }) as never;
const tag = () => randomBytes(3).toString("hex");

async function json(run: () => Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await run().catch((thrown: unknown) => thrown);
  if (!(answer instanceof Response)) throw new Error(`not a Response: ${String(answer)}`);
  return { status: answer.status, body: answer.status === 204 ? {} : ((await answer.json()) as Record<string, unknown>) };
}

const adminRequest = (url: string, method: string, body?: unknown) =>
  new Request(`${SITE}${url}`, { method, headers: { cookie: adminCookie, "content-type": "application/json", origin: SITE }, body: body === undefined ? undefined : JSON.stringify(body) });

/** Creates a deck through the admin API; answers its id and slug. */
async function newDeck(over: Record<string, unknown>) {
  const created = await json(() => createDeckAction(args(adminRequest("/api/admin/decks", "POST", { name: "参照先デッキ", tier: 1, category: "deck-recipe", energyTypes: ["electric"], cards: LEGAL, isPublic: true, ...over }))));
  expect(created.status).toBe(201);
  return created.body as { id: string; slug: string };
}

/** Saves a deck through the admin API as its editor would (loads it, changes fields, names the revision). */
async function editDeck(id: string, change: Record<string, unknown>) {
  const loaded = (await json(() => editLoader(args(adminRequest(`/api/admin/decks/${id}`, "GET"), { id })))).body as Record<string, unknown>;
  const cards = (loaded.cards as { cardId: string; count: number }[]).map(({ cardId, count }) => ({ cardId, count }));
  const saved = await json(() => deckAction(args(adminRequest(`/api/admin/decks/${id}`, "PATCH", { ...loaded, cards, ...change }), { id })));
  expect(saved.status).toBe(200);
}

const deleteDeckViaApi = async (id: string) => expect((await json(() => deckAction(args(adminRequest(`/api/admin/decks/${id}`, "DELETE"), { id })))).status).toBe(204);
const publicArticleHtml = async (slug: string) => (await json(() => apiArticleLoader(args(new Request(`${SITE}/api/articles/${slug}`), { ref: slug })))).body.html as string;
const publicDeckHtml = async (slug: string) => (await json(() => apiDeckLoader(args(new Request(`${SITE}/api/decks/${slug}`), { slug })))).body.contentHtml as string;

async function newArticle(content: string, over: Record<string, unknown> = {}) {
  return createArticle(database.db, env, ArticleCreateSchema.parse({ title: "参照する記事", category: "news", content, isPublic: true, ...over }), null);
}

describe("an article showing a deck", () => {
  it("follows the deck through unpublish, re-publish, rename and delete", async () => {
    const slug = `target-${tag()}`;
    const deck = await newDeck({ slug, name: "ピカチュウexデッキ" });
    const article = await newArticle(`おすすめ:\n\n[[deck:${slug}]]`);
    // Read once, so a cached answer would show if the cache were not emptied.
    expect(await publicArticleHtml(article.slug)).toContain(`href="/deck-recipes/${slug}"`);

    await editDeck(deck.id, { isPublic: false });
    let html = await publicArticleHtml(article.slug);
    expect(html).not.toContain(`/deck-recipes/${slug}`);
    expect(html).not.toContain("ピカチュウexデッキ");
    expect(html).toContain("デッキレシピが見つかりません");

    await editDeck(deck.id, { isPublic: true, name: "ミュウツーexデッキ" });
    html = await publicArticleHtml(article.slug);
    expect(html).toContain(`href="/deck-recipes/${slug}"`);
    expect(html).toContain("ミュウツーexデッキ");

    // A new slug: the block names the old one, which now leads nowhere.
    await editDeck(deck.id, { slug: `${slug}-new` });
    expect(await publicArticleHtml(article.slug)).toContain("デッキレシピが見つかりません");
    await editDeck(deck.id, { slug });
    expect(await publicArticleHtml(article.slug)).toContain(`href="/deck-recipes/${slug}"`);

    await deleteDeckViaApi(deck.id);
    html = await publicArticleHtml(article.slug);
    expect(html).not.toContain(`/deck-recipes/${slug}`);
    expect(html).toContain("デッキレシピが見つかりません");
  });

  it("shows a deck published after the article named it (by slug, any case)", async () => {
    const slug = `later-${tag()}`;
    const article = await newArticle(`[[deck:${slug.toUpperCase()}]]`);
    expect(await publicArticleHtml(article.slug)).toContain("デッキレシピが見つかりません");
    await newDeck({ slug, name: "あとから公開" });
    expect(await publicArticleHtml(article.slug)).toContain(`href="/deck-recipes/${slug}"`);
  });
});

describe("a deck showing an article or a deck", () => {
  it("follows the article through unpublish, re-publish, rename and delete", async () => {
    const article = await newArticle("本文", { title: "環境まとめ", slug: `guide-${tag()}` });
    const deck = await newDeck({ slug: `reader-${tag()}`, description: `解説:\n\n[[article:${article.slug}]]` });
    expect(await publicDeckHtml(deck.slug)).toContain(`href="/articles/${article.slug}"`);

    await setArticleVisibility(database.db, env, article.id, false);
    let html = await publicDeckHtml(deck.slug);
    expect(html).not.toContain(`/articles/${article.slug}`);
    expect(html).toContain("記事が見つかりません");

    await setArticleVisibility(database.db, env, article.id, true);
    expect(await publicDeckHtml(deck.slug)).toContain(`href="/articles/${article.slug}"`);

    const renamed = await updateArticle(database.db, env, article.id, ArticleUpdateSchema.parse({ revision: 3, title: "最新の環境まとめ" }));
    expect(renamed.title).toBe("最新の環境まとめ");
    expect(await publicDeckHtml(deck.slug)).toContain("最新の環境まとめ");

    await deleteArticle(database.db, env, article.id);
    html = await publicDeckHtml(deck.slug);
    expect(html).not.toContain(`/articles/${article.slug}`);
    expect(html).toContain("記事が見つかりません");
  });

  it("follows another deck through unpublish, re-publish and delete", async () => {
    const target = await newDeck({ slug: `other-${tag()}`, name: "相方デッキ" });
    const reader = await newDeck({ slug: `pair-${tag()}`, description: `[[deck:${target.id}]]` });
    expect(await publicDeckHtml(reader.slug)).toContain(`href="/deck-recipes/${target.slug}"`);
    await editDeck(target.id, { isPublic: false });
    expect(await publicDeckHtml(reader.slug)).toContain("デッキレシピが見つかりません");
    await editDeck(target.id, { isPublic: true, name: "改名した相方" });
    expect(await publicDeckHtml(reader.slug)).toContain("改名した相方");
    await deleteDeckViaApi(target.id);
    expect(await publicDeckHtml(reader.slug)).toContain("デッキレシピが見つかりません");
  });

  it("records what each text names, and forgets it when the text drops the block or goes", async () => {
    const slug = `dropped-${tag()}`;
    const article = await newArticle(`[[deck:${slug}]]\n\n[[article:Some-Guide]]`);
    const namedBy = async (id: string) =>
      (await database.db.select({ kind: contentRefs.targetKind, ref: contentRefs.targetRef }).from(contentRefs).where(eq(contentRefs.sourceId, id))).map((r) => `${r.kind}:${r.ref}`).sort();
    expect(await namedBy(article.id)).toEqual(["article:some-guide", `deck:${slug}`]);
    await updateArticle(database.db, env, article.id, ArticleUpdateSchema.parse({ revision: article.revision, content: "ブロックなし" }));
    expect(await namedBy(article.id)).toEqual([]);
    const deck = await newDeck({ slug: `refs-${tag()}`, description: `[[deck:${slug}]]` });
    expect(await namedBy(deck.id)).toEqual([`deck:${slug}`]);
    await deleteDeckViaApi(deck.id);
    expect(await namedBy(deck.id)).toEqual([]);
  });
});
