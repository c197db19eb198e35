import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardPacks, cards, deckCards, decks, packs, rarities, tradeOfferCards, tradeOffers, wantedCards } from "#app/db/schema/index.ts";
import { listPacks } from "#app/features/cards/cards.server.ts";
import { correctCardName, hasCatalogue, readCatalogue, seedCatalogue, type Catalogue } from "#app/features/cards/catalogue.server.ts";
import { readCatalogueSource } from "#app/features/cards/catalogue-source.server.ts";
import { applyCatalogueUpdate, formatCataloguePlan, planCatalogueUpdate } from "#app/features/cards/catalogue-update.server.ts";
import { renderStoredContent } from "#app/features/content/refs.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// A few cards of each shape as pokemon-tcg-pocket-database 2.6.1 shipped them (the npm version a
// database of the site was seeded from before the vendored catalogue): sets up to B3.
const OLD_CATALOGUE = path.join(import.meta.dirname, "../fixtures/catalogue-2.6.1");
const REFERENCED = ["A1-001", "A1-053", "A1-096", "B3-001", "PROMO-A-029"];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("upgrading a database seeded from 2.6.1 to the vendored catalogue", () => {
  it("adds the new sets in place, and every offer, want, deck and card block still points at the same card", async () => {
    const db = database.db;
    const old = await seedCatalogue(db, readCatalogue(readCatalogueSource(OLD_CATALOGUE)));
    expect(old.plan.newCards).toBe(20);
    const before = await db.select({ id: cards.id, name: cards.name }).from(cards).where(inArray(cards.id, REFERENCED));
    expect(before).toHaveLength(REFERENCED.length);

    const owner = await createUser(db);
    const [offer] = await db
      .insert(tradeOffers)
      .values({ ownerId: owner.id, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: tradeOffers.id });
    await db.insert(tradeOfferCards).values([
      { offerId: offer.id, cardId: "A1-053", side: "give" },
      { offerId: offer.id, cardId: "B3-001", side: "want" },
    ]);
    await db.insert(wantedCards).values({ userId: owner.id, cardId: "A1-096" });
    const [deck] = await db.insert(decks).values({ slug: "upgrade-deck", name: "アップグレード", tier: 1, category: "deck-recipe" }).returning({ id: decks.id });
    await db.insert(deckCards).values([
      { deckId: deck.id, cardId: "A1-001", count: 2, position: 0 },
      { deckId: deck.id, cardId: "PROMO-A-029", count: 1, position: 1 },
    ]);

    expect(await hasCatalogue(db)).toBe(false);
    const plan = await planCatalogueUpdate(db, readCatalogue());
    expect(plan.newSets.map((s) => s.code)).toEqual(expect.arrayContaining(["B3a", "B3b", "B4"]));
    expect(plan.removed).toBe(0);
    // Nothing is written by a plan.
    expect((await db.select({ n: count() }).from(cards))[0].n).toBe(20);

    const applied = await seedCatalogue(db);
    expect(applied.plan.newCards).toBe(readCatalogue().cards.length - 20);
    expect((await db.select({ n: count() }).from(cards))[0].n).toBeGreaterThanOrEqual(3761);
    expect(await hasCatalogue(db)).toBe(true);

    const offerCards = await db
      .select({ cardId: tradeOfferCards.cardId, name: cards.name })
      .from(tradeOfferCards)
      .innerJoin(cards, eq(cards.id, tradeOfferCards.cardId))
      .where(eq(tradeOfferCards.offerId, offer.id));
    expect(offerCards.map((c) => c.cardId).sort()).toEqual(["A1-053", "B3-001"]);
    expect(offerCards.find((c) => c.cardId === "A1-053")?.name).toBe("ゼニガメ");
    const wants = await db.select({ cardId: wantedCards.cardId }).from(wantedCards).innerJoin(cards, eq(cards.id, wantedCards.cardId));
    expect(wants).toEqual([{ cardId: "A1-096" }]);
    const deckRows = await db.select({ cardId: deckCards.cardId }).from(deckCards).innerJoin(cards, eq(cards.id, deckCards.cardId)).where(eq(deckCards.deckId, deck.id));
    expect(deckRows.map((r) => r.cardId).sort()).toEqual(["A1-001", "PROMO-A-029"]);

    const store = uploadStore(loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-upgrade-")), SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" }));
    const html = await renderStoredContent(db, store, "[[card:A1-053]]\n[[card:B3-001]]");
    expect(html).not.toContain("content-card-missing");
    expect(html).toContain('href="/cards/A1-053"');

    // The upgrade brought facts to cards that had none, and trade costs to the rarities.
    const [squirtle] = await db.select().from(cards).where(eq(cards.id, "A1-053"));
    expect(squirtle).toMatchObject({ element: "water", hp: 60, weakness: "lightning", retreatCost: 1 });
    expect(squirtle.attacks).toEqual([{ cost: ["water"], damage: 20 }]);
    const [diamond3] = await db.select().from(rarities).where(eq(rarities.code, "◆◆◆"));
    expect(diamond3.tradeCost).toBe(1200);

    // The home page's newest pack is the newest set by release date.
    const [newest] = await listPacks(db);
    expect(newest.setCode).toBe("B4");
  });

  it("applying the same catalogue again changes nothing, and an update never deletes a card", async () => {
    const db = database.db;
    const cardsBefore = (await db.select({ n: count() }).from(cards))[0].n;
    const linksBefore = (await db.select({ n: count() }).from(cardPacks))[0].n;
    // The upgrade at start-up only added; cards:update also renames the 2.6.1-era rows once.
    await applyCatalogueUpdate(db, readCatalogue());
    const again = await applyCatalogueUpdate(db, readCatalogue());
    expect(again.changes).toBe(false);
    expect(again.newCards + again.renamed.length + again.rarityChanged.length + again.otherChanged).toBe(0);

    // An older copy lacks most cards: they are kept, not removed.
    const older = await applyCatalogueUpdate(db, readCatalogue(readCatalogueSource(OLD_CATALOGUE)));
    expect(older.removed).toBe(0);
    expect(older.kept).toBe(cardsBefore - 20);
    expect((await db.select({ n: count() }).from(cards))[0].n).toBe(cardsBefore);
    expect((await db.select({ n: count() }).from(cardPacks))[0].n).toBe(linksBefore);
    expect((await db.select({ n: count() }).from(packs).where(eq(packs.setCode, "B4")))[0].n).toBe(1);
    // Put the vendored catalogue back for whoever reads this database next.
    await applyCatalogueUpdate(db, readCatalogue());
  });

  it("start-up adds what is new and never puts back a name an admin corrected; cards:update renames, except the admin's", async () => {
    const db = database.db;
    await applyCatalogueUpdate(db, readCatalogue());
    expect(await correctCardName(db, "A1-053", { name: "ゼニガメ（管理者）", note: "https://example.jp/zenigame" })).toBe(true);
    await db.update(cards).set({ hp: null, attacks: null }).where(eq(cards.id, "A1-001"));
    await db.update(cards).set({ hp: 999 }).where(eq(cards.id, "A1-002"));

    // A newer copy of the data renames two cards, one of them the corrected one.
    const vendored = readCatalogue();
    const newer: Catalogue = {
      ...vendored,
      cards: vendored.cards.map((c) => (c.id === "A1-053" ? { ...c, name: "ゼニガメ改" } : c.id === "A1-096" ? { ...c, name: "新しい名前" } : c)),
    };
    const started = await seedCatalogue(db, newer);
    expect(started.plan.renamed).toEqual([]);
    const names = async () => Object.fromEntries((await db.select({ id: cards.id, name: cards.name, hp: cards.hp, attacks: cards.attacks }).from(cards).where(inArray(cards.id, ["A1-001", "A1-002", "A1-053", "A1-096"]))).map((c) => [c.id, c]));
    let after = await names();
    expect(after["A1-053"].name).toBe("ゼニガメ（管理者）");
    expect(after["A1-096"].name).toBe(vendored.cards.find((c) => c.id === "A1-096")!.name);
    // Facts reach a card that had none; a fact a card has is not overwritten at start-up.
    expect(after["A1-001"].hp).toBe(70);
    expect(after["A1-001"].attacks).not.toBeNull();
    expect(after["A1-002"].hp).toBe(999);
    expect(await hasCatalogue(db)).toBe(true);

    const preview = await planCatalogueUpdate(db, newer);
    expect(preview.renamed.map((r) => r.id)).toEqual(["A1-096"]);
    expect(preview.correctionsKept).toEqual([{ id: "A1-053", name: "ゼニガメ（管理者）", catalogueName: "ゼニガメ改", note: "https://example.jp/zenigame" }]);
    expect(formatCataloguePlan(preview)).toContain("kept admin correction A1-053: ゼニガメ（管理者） (catalogue: ゼニガメ改; source: https://example.jp/zenigame)");
    await applyCatalogueUpdate(db, newer);
    after = await names();
    expect(after["A1-096"].name).toBe("新しい名前");
    expect(after["A1-053"].name).toBe("ゼニガメ（管理者）");
    expect(after["A1-002"].hp).not.toBe(999);
    expect((await applyCatalogueUpdate(db, newer)).changes).toBe(false);
  });

  it("start-up gives a card still named in English its Japanese name, and leaves an admin's English name alone", async () => {
    const db = database.db;
    await applyCatalogueUpdate(db, readCatalogue());
    const trainers = readCatalogue().cards.filter((c) => c.cardType !== "pokemon" && c.name !== c.nameEn).slice(0, 2);
    expect(trainers).toHaveLength(2);
    const [plain, corrected] = trainers;
    // As a database seeded before the trainers had Japanese names holds them.
    for (const card of trainers) await db.update(cards).set({ name: String(card.nameEn), nameReading: "", searchText: String(card.nameEn).toLowerCase() }).where(eq(cards.id, String(card.id)));
    await db.update(cards).set({ nameNote: "英語名のまま（管理者）" }).where(eq(cards.id, String(corrected.id)));

    const started = await seedCatalogue(db, readCatalogue());
    expect(started.plan.renamed).toEqual([{ id: String(plain.id), from: String(plain.nameEn), to: String(plain.name) }]);
    const rows = Object.fromEntries((await db.select().from(cards).where(inArray(cards.id, [String(plain.id), String(corrected.id)]))).map((c) => [c.id, c]));
    expect(rows[String(plain.id)].name).toBe(plain.name);
    expect(rows[String(plain.id)].nameReading).toBe(plain.nameReading);
    expect(rows[String(plain.id)].searchText).toBe(plain.searchText);
    expect(rows[String(corrected.id)].name).toBe(corrected.nameEn);
    // Named once, the card is not named again.
    expect((await seedCatalogue(db, readCatalogue())).plan.renamed).toEqual([]);
  });
});
