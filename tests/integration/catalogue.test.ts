import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPacks, showcaseCards } from "#app/features/cards/cards.server.ts";
import { hasCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { cardPacks, cards, packs, rarities } from "#app/db/schema/index.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const countOf = async (table: typeof cards | typeof packs | typeof cardPacks | typeof rarities) =>
  (await database.db.select({ n: count() }).from(table))[0].n;

describe("the real card catalogue", () => {
  it("loads every pack and card once, and a second run adds nothing", async () => {
    expect(await hasCatalogue(database.db)).toBe(false);
    const first = await seedCatalogue(database.db);
    expect(first.cards).toBeGreaterThan(3000);
    const after1 = [await countOf(cards), await countOf(packs), await countOf(cardPacks), await countOf(rarities)];
    expect(after1[0]).toBe(first.cards);
    expect(after1[1]).toBe(first.packs);
    await seedCatalogue(database.db);
    const after2 = [await countOf(cards), await countOf(packs), await countOf(cardPacks), await countOf(rarities)];
    expect(after2).toEqual(after1);
    expect(await hasCatalogue(database.db)).toBe(true);
  });

  it("uses docs/product-rules.md's pack ids for the nine named packs, newest set first", async () => {
    const all = await listPacks(database.db);
    const ids = all.map((p) => p.id);
    for (const id of ["dialga", "palkia", "phantom", "pikachu", "charizard", "mewtwo", "promo", "memorial", "shining-high"]) {
      expect(ids).toContain(id);
    }
    const dates = all.map((p) => p.releaseDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    const dialga = all.find((p) => p.id === "dialga")!;
    expect(dialga.nameJa).toBe("時空の激闘（ディアルガ）");
    expect(dialga.cardCount).toBeGreaterThan(100);
  });

  it("gives Pokémon cards Japanese names, keeping ex, メガ and regional forms, and maps rarities", async () => {
    const byId = async (id: string) => (await database.db.select().from(cards).where(eq(cards.id, id)))[0];
    expect(await byId("A1-001")).toMatchObject({ name: "フシギダネ", nameEn: "Bulbasaur", rarity: "◆" });
    const pikachuEx = (await database.db.select().from(cards).where(eq(cards.nameEn, "Pikachu ex")))[0];
    expect(pikachuEx.name).toBe("ピカチュウex");
    expect(pikachuEx.rarity).toBe("◆◆◆◆");
    const alolan = (await database.db.select().from(cards).where(eq(cards.nameEn, "Alolan Raichu ex")))[0];
    expect(alolan.name).toBe("アローラライチュウex");
    const crown = await database.db.select({ n: count() }).from(cards).where(eq(cards.rarity, "👑"));
    expect(crown[0].n).toBeGreaterThan(0);
    // Promo cards carry PROMO so docs/product-rules.md §5's promo-pack rule can keep them.
    const promoNotPromo = await database.db
      .select({ n: count() })
      .from(cardPacks)
      .innerJoin(cards, eq(cards.id, cardPacks.cardId))
      .where(and(eq(cardPacks.packId, "promo")));
    expect(promoNotPromo[0].n).toBeGreaterThan(50);
  });

  it("showcases a pack's rarest cards first", async () => {
    const shown = await showcaseCards(database.db, "dialga", 5);
    expect(shown).toHaveLength(5);
    expect(shown[0].rarity).toBe("👑");
  });
});
