import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { sitemapPart, parseSitemapPart } from "#app/features/seo/sitemap.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import { createOffer, offerPrefill } from "#app/features/trades/offers.server.ts";
import { offerPrefillFromParams } from "#app/features/trades/trades.schema.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { action as adminDeckAction, loader as adminDeckLoader } from "#app/routes/api.admin.decks.$id.ts";
import { loader as adminCardsLoader } from "#app/routes/api.admin.decks.cards.ts";
import { action as importAction } from "#app/routes/api.admin.decks.import.ts";
import { action as createAction, loader as adminListLoader } from "#app/routes/api.admin.decks.ts";
import { loader as apiDeckLoader } from "#app/routes/api.decks.$slug.ts";
import { loader as apiListLoader } from "#app/routes/api.decks.ts";
import { loader as pageLoader } from "#app/routes/deck-recipe.tsx";
import { loader as listPageLoader } from "#app/routes/deck-recipes.tsx";
import { loader as editorLoader } from "#app/routes/admin.deck-recipes.edit.tsx";
import { loader as boardLoader } from "#app/routes/trades.tsx";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SECRET = randomBytes(32).toString("base64url");
const SITE = "http://127.0.0.1:3000";
let database: TestDatabase;
let context: AppLoadContext;
let adminCookie: string;
let userCookie: string;

beforeAll(async () => {
  registerFeatureLinks();
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-deck-routes-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  context = { db: database.db, env, cspNonce: "test" } as AppLoadContext;
  const admin = await createUser(database.db, { role: "admin" });
  const user = await createUser(database.db);
  adminCookie = await createSessionCookie(database.db, admin.id, SECRET);
  userCookie = await createSessionCookie(database.db, user.id, SECRET);
});
afterAll(async () => {
  await database?.close();
});

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context }) as never;
const req = (url: string, init: { method?: string; cookie?: string; body?: unknown } = {}) =>
  new Request(`${SITE}${url}`, {
    method: init.method ?? "GET",
    headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });

async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown; location?: string | null }> {
  try {
    const value = await run();
    if (value instanceof Response) return { status: value.status, body: value.headers.get("content-type")?.includes("json") ? await value.json() : null, location: value.headers.get("location") };
    return { status: 200, body: value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: thrown.headers.get("content-type")?.includes("json") ? await thrown.json() : null, location: thrown.headers.get("location") };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status, body: (thrown as { data?: unknown }).data };
    throw thrown;
  }
}

const LEGAL = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
const deckBody = (over: Record<string, unknown> = {}) => ({ name: "ピカチュウex", tier: 1, category: "deck-recipe", energyTypes: ["electric"], cards: LEGAL, isPublic: true, ...over });

describe("admin deck API", () => {
  it("answers 401 signed out and 403 for a user; nothing is written", async () => {
    expect((await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", body: deckBody() }))))).status).toBe(401);
    const forbidden = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: userCookie, body: deckBody() }))));
    expect(forbidden).toMatchObject({ status: 403, body: { error: "管理者権限がありません。" } });
    expect((await outcome(() => adminListLoader(args(req("/api/admin/decks", { cookie: userCookie }))))).status).toBe(403);
    const list = await outcome(() => adminListLoader(args(req("/api/admin/decks", { cookie: adminCookie }))));
    expect(list.body).toEqual({ decks: [] });
  });

  it("gives docs/product-rules.md §5 messages per field and refuses non-JSON", async () => {
    const bad = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: { name: "  ", category: "guide" } }))));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "デッキ名を入力してください。", fields: { name: "デッキ名を入力してください。", tier: "Tierを選択してください。", category: "カテゴリーを選択してください。" } });
    expect((await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: "{" }))))).status).toBe(400);
    const nul = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ description: "a\u0000b" }) }))));
    expect(nul).toMatchObject({ status: 400, body: { fields: { description: "リクエストの形式が正しくありません" } } });
    const huge = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ description: "あ".repeat(300_000) }) }))));
    expect(huge.status).toBe(413);
    const unknownCard = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ cards: [{ cardId: "NOPE-1", count: 1 }] }) }))));
    expect(unknownCard).toMatchObject({ status: 400, body: { code: "unknown_card", fields: { cards: "カードが見つかりません：NOPE-1" } } });
  });

  it("creates, reads publicly with legality, updates, 409s a taken slug and deletes", async () => {
    const created = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ slug: "pika_ex" }) }))));
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string; slug: string };
    const publicDeck = await outcome(() => apiDeckLoader(args(req("/api/decks/pika_ex"), { slug: "pika_ex" })));
    expect(publicDeck.body).toMatchObject({ id, name: "ピカチュウex", legality: { status: "legal", total: 20 } });
    expect((publicDeck.body as { cards: unknown[] }).cards).toHaveLength(10);
    const list = await outcome(() => apiListLoader(args(req("/api/decks?tier=1&energy=electric"))));
    expect((list.body as { decks: { id: string }[] }).decks.map((d) => d.id)).toEqual([id]);

    const taken = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ slug: "pika_ex" }) }))));
    expect(taken).toMatchObject({ status: 409, body: { fields: { slug: "このスラッグは既に使われています" } } });

    const updated = await outcome(() => adminDeckAction(args(req(`/api/admin/decks/${id}`, { method: "PATCH", cookie: adminCookie, body: deckBody({ slug: "pika_ex", isPublic: false, revision: 1 }) }), { id })));
    expect(updated).toMatchObject({ status: 200, body: { id, slug: "pika_ex", revision: 2 } });
    // A save made from the page as it was before (revision 1) is refused and changes nothing.
    const stale = await outcome(() => adminDeckAction(args(req(`/api/admin/decks/${id}`, { method: "PATCH", cookie: adminCookie, body: deckBody({ name: "上書き", revision: 1 }) }), { id })));
    expect(stale).toMatchObject({ status: 409, body: { code: "conflict", error: "このデッキは開いた後に別の管理者が更新しました。入力内容は下書きとして残っています。最新の内容を読み込んでから保存し直してください" } });
    const unnamed = await outcome(() => adminDeckAction(args(req(`/api/admin/decks/${id}`, { method: "PATCH", cookie: adminCookie, body: deckBody({ name: "版なし" }) }), { id })));
    expect(unnamed).toMatchObject({ status: 400, body: { code: "invalid_input", fields: { revision: "読み込んだデッキの版が指定されていません。ページを読み込み直してください" } } });
    expect((await outcome(() => apiDeckLoader(args(req("/api/decks/pika_ex"), { slug: "pika_ex" })))).status).toBe(404);
    const edit = await outcome(() => adminDeckLoader(args(req(`/api/admin/decks/${id}`, { cookie: adminCookie }), { id })));
    expect(edit.body).toMatchObject({ id, slug: "pika_ex", isPublic: false, name: "ピカチュウex", revision: 2 });

    const removed = await outcome(() => adminDeckAction(args(req(`/api/admin/decks/${id}`, { method: "DELETE", cookie: adminCookie }), { id })));
    expect(removed.status).toBe(204);
    expect((await outcome(() => adminDeckAction(args(req(`/api/admin/decks/${id}`, { method: "DELETE", cookie: adminCookie }), { id })))).status).toBe(404);
  });

  it("imports pasted text and looks cards up with their game facts", async () => {
    const imported = await outcome(() => importAction(args(req("/api/admin/decks/import", { method: "POST", cookie: adminCookie, body: { text: "2 ピカチュウex A1 96\n1 ???" } }))));
    expect(imported.body).toMatchObject({ cards: [{ cardId: "A1-096", count: 2, kind: "pokemon", basic: true }], unmatched: [{ line: 2, text: "1 ???" }] });
    const cards = await outcome(() => adminCardsLoader(args(req("/api/admin/decks/cards?ids=A1-218,B4-001", { cookie: adminCookie }))));
    expect((cards.body as { cards: unknown[] }).cards).toMatchObject([{ cardId: "A1-218", kind: "trainer", fossil: true, basic: false }, { cardId: "B4-001", kind: null, basic: null }]);
  });
});

describe("deck pages", () => {
  it("301s the id URL to the slug URL, 404s unknown and private decks, lets admins preview", async () => {
    const created = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ slug: "page_deck" }) }))));
    const { id } = created.body as { id: string };
    expect(await outcome(() => pageLoader(args(req(`/deck-recipes/${id}`), { slug: id })))).toMatchObject({ status: 301, location: "/deck-recipes/page_deck" });
    const page = await outcome(() => pageLoader(args(req("/deck-recipes/page_deck"), { slug: "page_deck" })));
    expect(page.body).toMatchObject({ preview: false, deck: { slug: "page_deck" } });
    expect((await outcome(() => pageLoader(args(req("/deck-recipes/nothing-here"), { slug: "nothing-here" })))).status).toBe(404);

    const hidden = await outcome(() => createAction(args(req("/api/admin/decks", { method: "POST", cookie: adminCookie, body: deckBody({ slug: "hidden_deck", isPublic: false }) }))));
    expect((await outcome(() => pageLoader(args(req("/deck-recipes/hidden_deck"), { slug: "hidden_deck" })))).status).toBe(404);
    expect((await outcome(() => pageLoader(args(req("/deck-recipes/hidden_deck", { cookie: userCookie }), { slug: "hidden_deck" })))).status).toBe(404);
    expect(await outcome(() => pageLoader(args(req("/deck-recipes/hidden_deck", { cookie: adminCookie }), { slug: "hidden_deck" })))).toMatchObject({ status: 200, body: { preview: true } });

    const list = await outcome(() => listPageLoader(args(req("/deck-recipes?cursor=broken&tier=9"))));
    expect(list.body).toMatchObject({ loadFailed: false, filters: { tier: null } });
    expect((list.body as { decks: { slug: string }[] }).decks.map((d) => d.slug)).toEqual(["page_deck"]);

    const part = parseSitemapPart("decks-1.xml")!;
    let xml = "";
    for await (const chunk of sitemapPart(database.db, SITE, part)) xml += chunk;
    expect(xml).toContain(`<loc>${SITE}/deck-recipes/page_deck</loc>`);
    expect(xml).not.toContain("hidden_deck");
    void hidden;
  });

  it("the editor routes are for admins only, checked on the server", async () => {
    const id = "0b6e7a52-8a43-4c1e-9d5e-7d1f7f6b2a10";
    expect((await outcome(() => editorLoader(args(req(`/admin/deck-recipes/edit/${id}`), { id })))).status).toBe(401);
    expect((await outcome(() => editorLoader(args(req(`/admin/deck-recipes/edit/${id}`, { cookie: userCookie }), { id })))).status).toBe(403);
    expect((await outcome(() => editorLoader(args(req(`/admin/deck-recipes/edit/${id}`, { cookie: adminCookie }), { id })))).status).toBe(404);
  });
});

describe("trade for it", () => {
  it("the board's giveAny lists offers giving any of the deck's cards; the new offer starts with them on the 求 side", async () => {
    const owner = await createUser(database.db);
    // ピカチュウex (◆◆◆◆) given for サンダーex (◆◆◆◆): a same-rarity pair.
    const { id: offerId } = await createOffer(database.db, owner.id, { give: [{ cardId: "A1-096", count: 1 }], want: [{ cardId: "A1-104", count: 1 }], comment: "" });
    const board = await outcome(() => boardLoader(args(req("/trades?giveAny=A1-096,A1-105"))));
    expect((board.body as { offers: { id: string }[] }).offers.map((o) => o.id)).toEqual([offerId]);
    const none = await outcome(() => boardLoader(args(req("/trades?giveAny=A1-105"))));
    expect((none.body as { offers: unknown[] }).offers).toEqual([]);

    const wanted = offerPrefillFromParams(new URLSearchParams("want=A1-096*2,A1-104*9,PROMO-A-007*2,bad id,A1-096*1"));
    expect(wanted).toEqual([{ cardId: "A1-096", count: 2 }, { cardId: "A1-104", count: 2 }, { cardId: "PROMO-A-007", count: 2 }]);
    // PROMO cards cannot be traded: they are left out of the prefill.
    // Each with its print, which the form shows beside the name.
    expect((await offerPrefill(database.db, wanted)).map((c) => [c.cardId, c.setCode, c.number])).toEqual([
      ["A1-096", "A1", 96],
      ["A1-104", "A1", 104],
    ]);
  });
});
