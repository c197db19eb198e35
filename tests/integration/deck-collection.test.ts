import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { adjustCardCount, setCardCounts } from "#app/features/collection/collection.server.ts";
import { packChoices, readPullRates } from "#app/features/collection/pack-odds.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { DeckInputSchema } from "#app/features/decks/decks.schema.ts";
import { createDeck } from "#app/features/decks/decks.server.ts";
import { addMissingDeckCardsToWants } from "#app/features/decks/deck-collection.server.ts";
import { addWantedCard, addWantedCards, MAX_WANTED_CARDS } from "#app/features/notifications/want-list.server.ts";
import { uploadStore, type UploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { action as deckAction, loader as deckLoader } from "#app/routes/deck-recipe.tsx";
import { loader as listLoader } from "#app/routes/deck-recipes.tsx";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SECRET = randomBytes(32).toString("base64url");
const SITE = "http://127.0.0.1:3000";
let database: TestDatabase;
let db: TestDatabase["db"];
let store: UploadStore;
let context: AppLoadContext;
/** Tradeable ◆ cards of the catalogue (each test takes its own slice). */
let common: { id: string; name: string }[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-deck-collection-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  store = uploadStore(env);
  context = { db, env, cspNonce: "test" } as AppLoadContext;
  common = await catalogueCards(db, "◆", 30);
});
afterAll(async () => {
  await database?.close();
});

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context }) as never;

async function publicDeck(cards: { cardId: string; count: number }[], isPublic = true): Promise<{ id: string; slug: string }> {
  const input = DeckInputSchema.parse({
    name: `テストデッキ ${randomBytes(3).toString("hex")}`,
    tier: 2,
    category: "deck-recipe",
    energyTypes: ["grass"],
    cards,
    isPublic,
    publishIllegal: true,
  });
  return createDeck(db, store, null, input);
}

async function signedIn(): Promise<{ id: string; cookie: string }> {
  const user = await createUser(db);
  return { id: user.id, cookie: await createSessionCookie(db, user.id, SECRET) };
}

const wants = async (userId: string) =>
  (await rowsOf<{ card_id: string }>(db, sql`select card_id from wanted_cards where user_id = ${userId} order by card_id`)).map((r) => r.card_id);

async function settle(run: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    const value = await run();
    const init = (value as { init?: { status?: number } | null; data?: unknown; type?: string } | null);
    if (init && init.type === "DataWithResponseInit") return { status: init.init?.status ?? 200, body: init.data };
    return { status: 200, body: value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: null };
    const init = (thrown as { init?: { status?: number }; data?: unknown }).init;
    if (init?.status) return { status: init.status, body: (thrown as { data?: unknown }).data };
    throw thrown;
  }
}

describe("a deck page against the reader's collection", () => {
  it("marks each card owned or missing and counts the copies missing (the exact print)", async () => {
    const [a, b, c] = common;
    const deck = await publicDeck([
      { cardId: a.id, count: 2 },
      { cardId: b.id, count: 2 },
      { cardId: c.id, count: 1 },
    ]);
    const player = await signedIn();
    // a: 3 owned (enough), b: 1 of 2, c: none.
    await setCardCounts(db, player.id, [
      { cardId: a.id, count: 3 },
      { cardId: b.id, count: 1 },
    ]);
    const page = (await deckLoader(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { headers: { cookie: player.cookie } }), { slug: deck.slug }))) as {
      collection: { missing: number; missingKinds: number; cards: Record<string, { owned: number; missing: number }> } | null;
    };
    expect(page.collection).toEqual({
      missing: 2,
      missingKinds: 2,
      cards: { [a.id]: { owned: 3, missing: 0 }, [b.id]: { owned: 1, missing: 1 }, [c.id]: { owned: 0, missing: 1 } },
    });
  });

  it("shows nothing of it to a signed-out reader or a player without a collection", async () => {
    const [a] = common;
    const deck = await publicDeck([{ cardId: a.id, count: 2 }]);
    const signedOut = (await deckLoader(args(new Request(`${SITE}/deck-recipes/${deck.slug}`), { slug: deck.slug }))) as { collection: unknown };
    expect(signedOut.collection).toBeNull();
    const newcomer = await signedIn();
    const fresh = (await deckLoader(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { headers: { cookie: newcomer.cookie } }), { slug: deck.slug }))) as { collection: unknown };
    expect(fresh.collection).toBeNull();
    // The button's action refuses them with the deck's own message, and writes nothing.
    const refused = await settle(() => deckAction(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { method: "POST", headers: { cookie: newcomer.cookie, "content-type": "application/x-www-form-urlencoded" }, body: "intent=want-missing" }), { slug: deck.slug })));
    expect(refused).toMatchObject({ status: 409, body: { code: "no_collection" } });
    expect(await wants(newcomer.id)).toEqual([]);
  });
});

describe("足りないカードをほしいカードに追加", () => {
  it("adds only the missing cards, names those already wanted, and answers the counts", async () => {
    const [a, b, c, d] = common.slice(10);
    const deck = await publicDeck([
      { cardId: a.id, count: 2 },
      { cardId: b.id, count: 2 },
      { cardId: c.id, count: 1 },
      { cardId: d.id, count: 1 },
    ]);
    const player = await signedIn();
    await setCardCounts(db, player.id, [{ cardId: a.id, count: 2 }, { cardId: b.id, count: 1 }]);
    await addWantedCard(db, player.id, c.id);
    const answer = await settle(() => deckAction(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { method: "POST", headers: { cookie: player.cookie, "content-type": "application/x-www-form-urlencoded" }, body: "intent=want-missing" }), { slug: deck.slug })));
    expect(answer).toEqual({ status: 200, body: { ok: true, added: 2, already: 1, notTradeable: 0 } });
    expect(await wants(player.id)).toEqual([b.id, c.id, d.id].sort());
  });

  it("leaves out cards the trade rules close, and adds nothing past the want list's cap", async () => {
    const closed = await rowsOf<{ id: string }>(db, sql`select c.id from cards c join rarities r on r.code = c.rarity join card_packs cp on cp.card_id = c.id where not r.tradeable order by c.id limit 1`);
    const [open1, open2] = common.slice(20);
    const deck = await publicDeck([
      { cardId: open1.id, count: 1 },
      { cardId: open2.id, count: 1 },
      { cardId: closed[0]!.id, count: 1 },
    ]);
    const player = await signedIn();
    await setCardCounts(db, player.id, [{ cardId: common[0].id, count: 1 }]);
    expect(await addMissingDeckCardsToWants(db, player.id, deck.slug)).toEqual({ added: [open1.id, open2.id], already: [], notTradeable: [closed[0]!.id] });
    expect(await wants(player.id)).toEqual([open1.id, open2.id].sort());

    // A list one short of the cap: two more would pass it, so neither goes on.
    const full = await signedIn();
    await setCardCounts(db, full.id, [{ cardId: common[0].id, count: 1 }]);
    await db.execute(sql`insert into wanted_cards (user_id, card_id)
        select ${full.id}, id from cards where id not in (${open1.id}, ${open2.id}) order by id limit ${MAX_WANTED_CARDS - 1}`);
    const refused = await settle(() => deckAction(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { method: "POST", headers: { cookie: full.cookie, "content-type": "application/x-www-form-urlencoded" }, body: "intent=want-missing" }), { slug: deck.slug })));
    expect(refused).toMatchObject({ status: 400, body: { code: "too_many_wanted", message: `ほしいカードは${MAX_WANTED_CARDS}枚まで登録できます。` } });
    expect(await wants(full.id)).toHaveLength(MAX_WANTED_CARDS - 1);
  });

  it("answers 404 for a deck that is not public, writing nothing", async () => {
    const deck = await publicDeck([{ cardId: common[5].id, count: 1 }], false);
    const player = await signedIn();
    await setCardCounts(db, player.id, [{ cardId: common[0].id, count: 1 }]);
    const answer = await settle(() => deckAction(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { method: "POST", headers: { cookie: player.cookie, "content-type": "application/x-www-form-urlencoded" }, body: "intent=want-missing" }), { slug: deck.slug })));
    expect(answer).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await wants(player.id)).toEqual([]);
  });

  it("sends a signed-out press to log in", async () => {
    const deck = await publicDeck([{ cardId: common[0].id, count: 1 }]);
    const answer = await settle(() => deckAction(args(new Request(`${SITE}/deck-recipes/${deck.slug}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "intent=want-missing" }), { slug: deck.slug })));
    expect(answer.status).toBe(302);
  });
});

type ListPage = { filters: { missing: number | null }; hasCollection: boolean; missing: Record<string, number> | null; decks: { id: string }[]; nextCursor: string | null };

describe("/deck-recipes filtered by my collection", () => {
  it("今作れるデッキ and あと N 枚以内 combine with the other filters and page through every match once", async () => {
    // Cards no other test's deck uses, so the decks this player can build are this test's.
    const [own, lack] = await catalogueCards(db, "◆◆", 2);
    const player = await signedIn();
    await setCardCounts(db, player.id, [{ cardId: own.id, count: 2 }]);
    const buildable: string[] = [];
    for (let i = 0; i < 13; i++) buildable.push((await publicDeck([{ cardId: own.id, count: 2 }])).id);
    const twoShort = (await publicDeck([{ cardId: own.id, count: 1 }, { cardId: lack.id, count: 2 }])).id;
    const fourShort = (await publicDeck([{ cardId: own.id, count: 2 }, { cardId: lack.id, count: 4 }])).id;
    const list = async (query: string, cookie: string | null = player.cookie) =>
      (await listLoader(args(new Request(`${SITE}/deck-recipes${query}`, { headers: cookie ? { cookie } : {} })))) as ListPage;

    const first = await list("?missing=0");
    expect(first).toMatchObject({ hasCollection: true, filters: { missing: 0 } });
    expect(first.decks).toHaveLength(12);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`?missing=0&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.decks, ...second.decks].map((d) => d.id).sort()).toEqual([...buildable].sort());

    expect(first.decks.map((d) => first.missing?.[d.id])).toEqual(Array(12).fill(0));
    const withinTwoPage = await list("?missing=2&tier=2");
    // Each listed deck says how many copies it lacks (あと N 枚).
    expect(withinTwoPage.missing?.[twoShort]).toBe(2);
    const withinTwo = withinTwoPage.decks.map((d) => d.id);
    expect(withinTwo).toContain(twoShort);
    expect(withinTwo).not.toContain(fourShort);
    expect((await list("?missing=5")).decks.map((d) => d.id)).toEqual(expect.arrayContaining([twoShort, fourShort]));
    // Another filter still applies: none of these decks is tier 1.
    expect((await list("?missing=2&tier=1")).decks.map((d) => d.id)).not.toContain(twoShort);
  });

  it("is neither offered nor applied without a collection or signed out", async () => {
    const newcomer = await signedIn();
    const list = async (cookie?: string) => (await listLoader(args(new Request(`${SITE}/deck-recipes?missing=0`, { headers: cookie ? { cookie } : {} })))) as ListPage;
    const fresh = await list(newcomer.cookie);
    expect(fresh).toMatchObject({ hasCollection: false, missing: null, filters: { missing: null } });
    const signedOut = await list();
    expect(signedOut).toMatchObject({ hasCollection: false, missing: null, filters: { missing: null } });
    expect(signedOut.decks.length).toBe(fresh.decks.length);
    expect(fresh.decks.length).toBeGreaterThan(0);
  });
});

describe("どのパックを引く？", () => {
  it("ranks the packs by expected new cards from the vendored pull rates, and owning a pack's cards moves it down", async () => {
    const rates = readPullRates();
    expect(rates.get("A1")?.length).toBeGreaterThanOrEqual(2);
    const player = await signedIn();
    const before = await packChoices(db, player.id, rates);
    expect(before.packs.length).toBeGreaterThan(3);
    const expected = before.packs.map((p) => p.expected);
    expect(expected).toEqual([...expected].sort((a, b) => b - a));
    for (const pack of before.packs) {
      // Nothing owned: every card of the pack is missing, and every opening gives new cards.
      expect(pack.missing).toBe(pack.total);
      expect(pack.atLeastOne).toBeGreaterThan(0.99);
    }
    // Owning every card of the top pack leaves it with nothing new: last, at 0.
    const top = before.packs[0];
    const index = await cardIndex(db);
    const topCards = (index.byPack.get(top.packId) ?? []).map((c) => ({ cardId: c.id, count: 1 }));
    for (let i = 0; i < topCards.length; i += 400) await setCardCounts(db, player.id, topCards.slice(i, i + 400));
    const after = await packChoices(db, player.id, rates);
    const moved = after.packs.find((p) => p.packId === top.packId)!;
    expect(moved).toMatchObject({ missing: 0, missingByRarity: [], atLeastOne: 0, expected: 0 });
    expect(after.packs.at(-1)?.expected).toBe(0);
    expect(after.packs[0].packId).not.toBe(top.packId);
  });
});

describe("the want list and the collection", () => {
  it("a tap and its undo leave the ほしいカード list as it was", async () => {
    const [card, other] = (await catalogueCards(db, "◆◆◆◆", 2)).map((c) => c.id);
    const player = await signedIn();
    await addWantedCards(db, player.id, [card, other]);
    await adjustCardCount(db, player.id, card, 1);
    await setCardCounts(db, player.id, [{ cardId: card, count: 0 }]);
    expect(await wants(player.id)).toEqual([card, other].sort());
  });
});
