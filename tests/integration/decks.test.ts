import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards, deckCards, decks } from "#app/db/schema/index.ts";
import { renderStoredContent, sanitizeContentHtml } from "#app/features/content/refs.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { invalidateCardIndex } from "#app/features/cards/card-index.server.ts";
import { DeckInputSchema, type DeckInput } from "#app/features/decks/decks.schema.ts";
import {
  createDeck,
  deckCardViews,
  deleteDeck,
  getDeck,
  getDeckForEdit,
  importDeckText,
  listAdminDecks,
  listDecksWithCard,
  listHomeDecks,
  listPublicDecks,
  updateDeck,
} from "#app/features/decks/decks.server.ts";
import { DeckError } from "#app/features/decks/errors.ts";
import { checkDeck } from "#app/features/decks/rules.ts";
import { uploadStore, type UploadStore } from "#app/features/uploads/storage.server.ts";
import { changeVersion, receiveRemoteChange } from "#app/lib/change-bus.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let store: UploadStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = uploadStore(loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-decks-")), SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" }));
  await seedCatalogue(database.db);
});
afterAll(async () => {
  await database?.close();
});

type Row = [cardId: string, count: number];

// A real Pikachu ex deck of the first set: 10 names × 2 = 20 cards, 3 Basic Pokémon names.
const LEGAL: Row[] = [
  ["A1-096", 2], // ピカチュウex (Basic)
  ["A1-104", 2], // サンダーex (Basic)
  ["A1-105", 2], // シママ (Basic)
  ["A1-106", 2], // ゼブライカ (Stage 1)
  ["PROMO-A-007", 2], // 博士の研究
  ["PROMO-A-005", 2], // モンスターボール
  ["A1-225", 2], // ナツメ
  ["A1-223", 2], // サカキ
  ["PROMO-A-002", 2], // スピーダー
  ["PROMO-A-001", 2], // キズぐすり
];

const input = (cards: Row[], over: Partial<Record<keyof DeckInput, unknown>> = {}): DeckInput =>
  DeckInputSchema.parse({ name: "ピカチュウexデッキ", tier: 1, category: "deck-recipe", energyTypes: ["electric"], cards: cards.map(([cardId, n]) => ({ cardId, count: n })), ...over });

async function legality(cards: Row[], energyTypes = ["electric"]) {
  const views = await deckCardViews(database.db, cards.map(([cardId, n]) => ({ cardId, packId: null, count: n })));
  expect(views).toHaveLength(cards.length);
  return checkDeck(views, energyTypes);
}

describe("deck legality on real catalogue decks", () => {
  it("a 20-card Pikachu ex deck with one energy type is 構築可能", async () => {
    const result = await legality(LEGAL);
    expect(result).toMatchObject({ status: "legal", total: 20, problems: [], unknownCards: [] });
  });

  it("21 cards is one too many", async () => {
    const result = await legality([...LEGAL, ["A1-094", 1]]); // ピカチュウ: a different name from ピカチュウex
    expect(result.status).toBe("illegal");
    expect(result.problems).toEqual([{ code: "card_count", count: 21 }]);
  });

  it("3 copies of one name split over two arts break the 2-copy rule", async () => {
    const rows: Row[] = LEGAL.map(([id, n]) => (id === "PROMO-A-001" ? [id, 1] : [id, n]));
    rows.push(["A1-259", 1]); // ピカチュウex, the full-art SR printing
    const result = await legality(rows);
    expect(result.total).toBe(20);
    expect(result.problems).toEqual([{ code: "too_many_copies", name: "ピカチュウex", count: 3 }]);
  });

  it("fossils are not Basic Pokémon: a deck of Stage 1s, fossils and trainers has no Basic", async () => {
    const rows: Row[] = [
      ["A1-106", 2], // ゼブライカ (Stage 1)
      ["A1-216", 2], // かいのカセキ
      ["A1-218", 2], // ひみつのコハク
      ["A1-217", 2], // こうらのカセキ
      ["PROMO-A-007", 2],
      ["PROMO-A-005", 2],
      ["A1-225", 2],
      ["A1-223", 2],
      ["PROMO-A-002", 2],
      ["PROMO-A-001", 2],
    ];
    const result = await legality(rows);
    expect(result.total).toBe(20);
    expect(result.problems).toEqual([{ code: "no_basic" }]);
  });

  it("4 energy types are one too many (and 0 too few)", async () => {
    expect((await legality(LEGAL, ["electric", "fire", "water", "grass"])).problems).toEqual([{ code: "energy_count", count: 4 }]);
    expect((await legality(LEGAL, [])).problems).toEqual([{ code: "energy_count", count: 0 }]);
  });

  it("a card without type data is said to be unknown instead of guessed", async () => {
    // B4 cards are in the catalogue but no source has their type or stage yet.
    const rows: Row[] = [["A1-106", 2], ["B4-001", 2], ...LEGAL.slice(4), ["A1-217", 2], ["A1-216", 2]];
    const result = await legality(rows);
    expect(result.status).toBe("unknown");
    expect(result.basicUnknown).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.unknownCards).toHaveLength(1);
  });
});

describe("deck saves", () => {
  it("creates with a generated slug, keeps the card order and reads back public only", async () => {
    const { id, slug } = await createDeck(database.db, store, null, input(LEGAL));
    expect(slug).toBe(`deck-${id.slice(0, 8)}`);
    expect(await getDeck(database.db, slug)).toBeNull(); // 公開する defaults to off
    const preview = await getDeck(database.db, id, { includePrivate: true });
    expect(preview?.cards.map((c) => c.cardId)).toEqual(LEGAL.map(([cardId]) => cardId));
    expect(preview?.legality.status).toBe("legal");
    await deleteDeck(database.db, id, { store });
  });

  it("every deck write is a content change (page caches and other instances forget), and another instance's change empties the deck caches here", async () => {
    const before = changeVersion("content");
    const { id, slug } = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true }));
    expect(changeVersion("content")).toBeGreaterThan(before);
    expect((await getDeck(database.db, slug))?.name).toBe("ピカチュウexデッキ");
    // Changed behind this instance's back (another instance's write), then announced through the relay.
    await database.db.update(decks).set({ name: "別のインスタンスで改名" }).where(eq(decks.id, id));
    expect((await getDeck(database.db, slug))?.name).toBe("ピカチュウexデッキ");
    receiveRemoteChange("content");
    expect((await getDeck(database.db, slug))?.name).toBe("別のインスタンスで改名");
    const afterCreate = changeVersion("content");
    await deleteDeck(database.db, id, { store });
    expect(changeVersion("content")).toBeGreaterThan(afterCreate);
  });

  it("accepts slugs with underscores, refuses other characters, an id-shaped slug and a taken one", async () => {
    const a = await createDeck(database.db, store, null, input(LEGAL, { slug: "pikachu_ex-deck", isPublic: true }));
    expect(a.slug).toBe("pikachu_ex-deck");
    expect((await getDeck(database.db, "pikachu_ex-deck"))?.id).toBe(a.id);
    expect(DeckInputSchema.safeParse({ ...input(LEGAL), slug: "ピカチュウ" }).success).toBe(false);
    expect(DeckInputSchema.safeParse({ ...input(LEGAL), slug: "a/b" }).success).toBe(false);
    await expect(createDeck(database.db, store, null, input(LEGAL, { slug: "pikachu_ex-deck" }))).rejects.toMatchObject({ code: "slug_taken", status: 409 });
    await expect(createDeck(database.db, store, null, input(LEGAL, { slug: "0b6e7a52-8a43-4c1e-9d5e-7d1f7f6b2a10" }))).rejects.toMatchObject({ code: "slug_invalid" });
    await deleteDeck(database.db, a.id, { store });
  });

  it("docs/product-rules.md §5 messages for a missing name (trimmed), tier and category", () => {
    const result = DeckInputSchema.safeParse({ name: "   ", tier: null, category: "" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toMatchObject({ name: "nameRequired", tier: "tierRequired", category: "categoryRequired" });
  });

  it("bounds copies to 0–4 per row and drops rows set to 0", () => {
    expect(DeckInputSchema.safeParse({ ...input([]), cards: [{ cardId: "A1-096", count: 5 }] }).success).toBe(false);
    expect(input([["A1-096", 0], ["A1-104", 2]]).cards).toEqual([{ cardId: "A1-104", packId: null, count: 2 }]);
  });

  it("an update replaces fields and cards in one transaction; an unknown card changes nothing", async () => {
    const { id } = await createDeck(database.db, store, null, input(LEGAL));
    await updateDeck(database.db, store, id, input(LEGAL.slice(0, 2), { name: "改名", tier: 2 }), 1);
    let edit = await getDeckForEdit(database.db, id);
    expect(edit).toMatchObject({ name: "改名", tier: 2 });
    expect(edit?.cards.map((c) => c.cardId)).toEqual(["A1-096", "A1-104"]);
    await expect(updateDeck(database.db, store, id, input([["A1-096", 1], ["ZZ-999", 1]], { name: "壊れた" }), 2)).rejects.toBeInstanceOf(DeckError);
    edit = await getDeckForEdit(database.db, id);
    expect(edit?.name).toBe("改名");
    expect(edit?.cards).toHaveLength(2);
    await expect(updateDeck(database.db, store, "0b6e7a52-8a43-4c1e-9d5e-7d1f7f6b2a10", input(LEGAL), 1)).rejects.toMatchObject({ code: "not_found" });
    await deleteDeck(database.db, id, { store });
    expect((await database.db.select({ n: count() }).from(deckCards).where(eq(deckCards.deckId, id)))[0].n).toBe(0);
  });

  it("a save naming an older revision is refused with conflict and writes nothing", async () => {
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { name: "はじめ" }));
    expect((await getDeckForEdit(database.db, id))?.revision).toBe(1);
    // Two editors loaded revision 1; the first save wins, the second is told.
    const first = await updateDeck(database.db, store, id, input(LEGAL, { name: "一人目" }), 1);
    expect(first.revision).toBe(2);
    await expect(updateDeck(database.db, store, id, input(LEGAL.slice(0, 1), { name: "二人目" }), 1)).rejects.toMatchObject({ code: "conflict", status: 409 });
    const edit = await getDeckForEdit(database.db, id);
    expect(edit).toMatchObject({ name: "一人目", revision: 2 });
    expect(edit?.cards).toHaveLength(LEGAL.length);
    await deleteDeck(database.db, id, { store });
  });

  it("a related deck deleted before the save commits is refused, never stored as a dangling id", async () => {
    const gone = await createDeck(database.db, store, null, input(LEGAL, { name: "消える" }));
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { name: "残る" }));
    await deleteDeck(database.db, gone.id, { store });
    await expect(updateDeck(database.db, store, id, input(LEGAL, { relatedDeckIds: [gone.id] }), 1)).rejects.toMatchObject({ code: "related_unknown" });
    await expect(createDeck(database.db, store, null, input(LEGAL, { relatedDeckIds: [gone.id] }))).rejects.toMatchObject({ code: "related_unknown" });
    expect((await getDeckForEdit(database.db, id))?.relatedDeckIds).toEqual([]);
    await deleteDeck(database.db, id, { store });
  });

  it("a save racing the related deck's deletion never leaves a dangling id (PostgreSQL runs them side by side)", async () => {
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { name: "競争" }));
    let revision = 1;
    for (let round = 0; round < 8; round++) {
      const target = await createDeck(database.db, store, null, input(LEGAL, { name: `相手${round}` }));
      const [saved] = await Promise.allSettled([updateDeck(database.db, store, id, input(LEGAL, { relatedDeckIds: [target.id] }), revision), deleteDeck(database.db, target.id, { store })]);
      if (saved.status === "fulfilled") revision = saved.value.revision;
      else expect(saved.reason).toMatchObject({ code: "related_unknown" });
      const edit = await getDeckForEdit(database.db, id);
      expect(edit?.relatedDeckIds).toEqual([]);
    }
    await deleteDeck(database.db, id, { store });
  });

  it("slugs are unique regardless of case; eyecatches follow the one image-URL rule", async () => {
    const first = await createDeck(database.db, store, null, input(LEGAL, { slug: "Case-x" }));
    await expect(createDeck(database.db, store, null, input(LEGAL, { slug: "case-x" }))).rejects.toMatchObject({ code: "slug_taken", status: 409 });
    const eyecatch = DeckInputSchema.safeParse({ ...input(LEGAL), eyecatchUrl: "/\\evil.example/x.png" });
    expect(eyecatch.success).toBe(false);
    expect(DeckInputSchema.safeParse({ ...input(LEGAL), eyecatchUrl: "/uploads/eyecatches/1-a.webp" }).success).toBe(true);
    await deleteDeck(database.db, first.id, { store });
  });

  it("renders card blocks with the card image base URL, as articles and the preview do", async () => {
    // A card whose art comes from the base URL only (its file name, no URL of its own).
    const card = { id: "A1-001", imageFile: "A1_001_JA.png" };
    await database.db.update(cards).set({ imageUrl: "", imageFile: card.imageFile, storedImage: null }).where(eq(cards.id, card.id));
    invalidateCardIndex(database.db);
    const base = "https://cards.example/art";
    const text = `[[card:${card.id}]]`;
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, description: text }), { cardImageBaseUrl: base });
    const deck = await getDeck(database.db, id);
    expect(deck?.contentHtml).toContain(`${base}/${card.imageFile}`);
    expect(deck?.contentHtml).toBe(sanitizeContentHtml(await renderStoredContent(database.db, store, text, { cardImageBaseUrl: base })));
    await deleteDeck(database.db, id, { store });
  });

  it("stores the description as the formatter's HTML with card and deck blocks resolved", async () => {
    const target = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, slug: "target_deck", name: "参照先" }));
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, description: "**強い**\n[[card:A1-096]]\n[[deck:target_deck]]\n<script>x</script>" }));
    const deck = await getDeck(database.db, id);
    // The public answer carries the rendered HTML only; the editor still loads the text as typed.
    expect(JSON.stringify(deck)).not.toContain("[[deck:target_deck]]");
    expect(deck?.excerpt).toMatch(/^強い/);
    expect((await getDeckForEdit(database.db, id))?.description).toContain("[[card:A1-096]]");
    expect(deck?.contentHtml).toContain("<strong>強い</strong>");
    expect(deck?.contentHtml).toContain('href="/cards/A1-096"');
    expect(deck?.contentHtml).toContain('href="/deck-recipes/target_deck"');
    expect(deck?.contentHtml).not.toContain("<script>");
    await deleteDeck(database.db, id, { store });
    await deleteDeck(database.db, target.id, { store });
  });

  it("deleting a deck takes it out of other decks' related lists", async () => {
    const a = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true }));
    const b = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, relatedDeckIds: [a.id] }));
    expect((await getDeck(database.db, b.slug))?.related.map((d) => d.id)).toEqual([a.id]);
    await deleteDeck(database.db, a.id, { store });
    const [row] = await database.db.select({ related: decks.relatedDeckIds }).from(decks).where(eq(decks.id, b.id));
    expect(row.related).toEqual([]);
    await expect(deleteDeck(database.db, a.id, { store })).rejects.toMatchObject({ code: "not_found" });
    await deleteDeck(database.db, b.id, { store });
  });
});

describe("deck lists", () => {
  it("a card page lists the public decks that use the card (tier 1 first), never private ones; a deck write shows at once", async () => {
    const pikachu = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, name: "使う", tier: 2 }));
    const hidden = await createDeck(database.db, store, null, input(LEGAL, { isPublic: false, name: "非公開で使う" }));
    expect((await listDecksWithCard(database.db, "A1-096")).map((d) => d.id)).toEqual([pikachu.id]);
    expect(await listDecksWithCard(database.db, "A1-001")).toEqual([]);
    const top = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, name: "一番", tier: 1 }));
    const listed = await listDecksWithCard(database.db, "PROMO-A-007");
    expect(listed.map((d) => d.id)).toEqual([top.id, pikachu.id]);
    expect(listed[0].keyCards.length).toBeGreaterThan(0);
    for (const id of [pikachu.id, hidden.id, top.id]) await deleteDeck(database.db, id, { store });
    expect(await listDecksWithCard(database.db, "A1-096")).toEqual([]);
  });

  it("pinned first, then newest; filters by tier, energy and category; pages with a cursor", async () => {
    const made: string[] = [];
    const make = async (over: Partial<Record<keyof DeckInput, unknown>>) => {
      const { id } = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true, ...over }));
      made.push(id);
      return id;
    };
    const oldPinned = await make({ name: "ピン留め", featuredOrder: 1, tier: 3 });
    const fire = await make({ name: "炎", energyTypes: ["fire"], tier: 2 });
    const newest = await make({ name: "最新", category: "event", tier: 1 });
    await make({ name: "非公開", isPublic: false });

    const all = await listPublicDecks(database.db);
    expect(all.decks.map((d) => d.id)).toEqual([oldPinned, newest, fire]);
    expect(all.decks[0].featured).toBe(true);
    expect(all.decks[0].keyCards.map((c) => c.cardId)).toEqual(["A1-096", "A1-104", "A1-105"]);
    expect((await listPublicDecks(database.db, { energy: "fire" })).decks.map((d) => d.id)).toEqual([fire]);
    expect((await listPublicDecks(database.db, { tier: 1 })).decks.map((d) => d.id)).toEqual([newest]);
    expect((await listPublicDecks(database.db, { category: "event" })).decks.map((d) => d.id)).toEqual([newest]);

    const first = await listPublicDecks(database.db, {}, null, 2);
    expect(first.decks.map((d) => d.id)).toEqual([oldPinned, newest]);
    const second = await listPublicDecks(database.db, {}, first.nextCursor, 2);
    expect(second.decks.map((d) => d.id)).toEqual([fire]);
    expect(second.nextCursor).toBeNull();
    await expect(listPublicDecks(database.db, {}, "garbage")).rejects.toMatchObject({ code: "invalid_cursor" });
    // A cursor naming no real time (30 February, year 0000, a bare number) is refused before the query.
    for (const c of ["2026-02-30T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "1"]) {
      const forged = Buffer.from(JSON.stringify({ f: 1, c, i: fire })).toString("base64url");
      await expect(listPublicDecks(database.db, {}, forged), c).rejects.toMatchObject({ code: "invalid_cursor" });
    }

    expect((await listHomeDecks(database.db)).map((d) => d.id)).toEqual([newest, fire, oldPinned]);
    const admin = await listAdminDecks(database.db);
    expect(admin[0]).toMatchObject({ name: "非公開", isPublic: false, total: 20 });
    for (const id of made) await deleteDeck(database.db, id, { store });
    expect((await listPublicDecks(database.db)).decks).toEqual([]);
  });
});

describe("deck text", () => {
  it("exports the community format and imports it back (set code + number, P-A, names), listing what does not match", async () => {
    const { id } = await createDeck(database.db, store, null, input(LEGAL, { isPublic: true }));
    const deck = await getDeck(database.db, id);
    expect(deck!.exportText.startsWith("ポケモン: 8\n2 ピカチュウex A1 96\n")).toBe(true);
    expect(deck!.exportText).toContain("\n\nトレーナーズ: 12\n2 博士の研究 P-A 7\n");
    expect((await importDeckText(database.db, deck!.exportText)).cards.map((c) => [c.cardId, c.count])).toEqual(LEGAL);
    const text = deck!.exportTextEn;
    expect(text.startsWith("Pokémon: 8\n2 ピカチュウex A1 96\n")).toBe(true);
    // Trainer cards are exported under their verified Japanese names.
    expect(text).toContain("\n\nTrainer: 12\n2 博士の研究 P-A 7\n");
    const back = await importDeckText(database.db, text);
    expect(back.unmatched).toEqual([]);
    expect(back.cards.map((c) => [c.cardId, c.count])).toEqual(LEGAL);

    const pasted = await importDeckText(database.db, ["Pokémon: 3", "2 Pikachu ex", "1 ゼブライカ", "2 謎のカード XX 1", "", "Trainer: 2", "2 Poké Ball PROMO-A 5", "ぐちゃぐちゃ", "9 ピカチュウex A1 96"].join("\n"));
    // A name alone takes the plainest printing of that name.
    expect(pasted.cards.map((c) => [c.name, c.count])).toEqual([["ピカチュウex", 2], ["ゼブライカ", 1], ["モンスターボール", 2]]);
    expect(pasted.cards[0].rarity).toBe("◆◆◆◆");
    expect(pasted.cards[2].cardId).toBe("PROMO-A-005");
    expect(pasted.unmatched).toEqual([
      { line: 4, text: "2 謎のカード XX 1" },
      { line: 8, text: "ぐちゃぐちゃ" },
      { line: 9, text: "9 ピカチュウex A1 96" },
    ]);
    await deleteDeck(database.db, id, { store });
  });
});
