import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardPacks, cards, rarities } from "#app/db/schema/index.ts";
import {
  getCard,
  getCardInPack,
  listCards,
  searchCards,
  type CardListItem,
} from "#app/features/cards/cards.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { invalidateCardIndex } from "#app/features/cards/card-index.server.ts";
import { cardSearchText, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { rarityRank } from "#app/lib/rarity.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
});
afterAll(async () => {
  await database?.close();
});

/** Adds a card straight to the database, linked to the given packs. */
async function addCard(id: string, name: string, rarity: string, packIds: string[], nameEn = "") {
  await database.db.insert(cards).values({ id, name, nameEn, rarity, number: 999, searchText: cardSearchText(name, nameEn) });
  await database.db.insert(cardPacks).values(packIds.map((packId) => ({ cardId: id, packId })));
  // Written behind the services' back: drop the in-memory card index.
  invalidateCardIndex(database.db);
}

async function allPages(query: Parameters<typeof listCards>[1]): Promise<CardListItem[]> {
  const out: CardListItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await listCards(database.db, { ...query, cursor });
    out.push(...page.cards);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe("listCards (docs/product-rules.md §5 card search by pack)", () => {
  it("sorts by rarity rank, highest first, then by card number, and pages through every card once", async () => {
    const first = await listCards(database.db, { packId: "dialga", limit: 25 });
    expect(first.pack.id).toBe("dialga");
    expect(first.cards).toHaveLength(25);
    expect(first.nextCursor).not.toBeNull();
    const all = await allPages({ packId: "dialga", limit: 25 });
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(all[0].rarity).toBe("👑");
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      const order = rarityRank(b.rarity) - rarityRank(a.rarity) || (a.number ?? 0) - (b.number ?? 0);
      expect(order <= 0 || rarityRank(a.rarity) > rarityRank(b.rarity)).toBe(true);
      if (rarityRank(a.rarity) === rarityRank(b.rarity)) expect(a.number! <= b.number!).toBe(true);
      else expect(rarityRank(a.rarity)).toBeGreaterThan(rarityRank(b.rarity));
    }
  });

  it("drops cards without a name or a rarity", async () => {
    await addCard("T-NONAME", "", "◆", ["dialga"]);
    await addCard("T-NORARITY", "レアリティなしカード", "", ["dialga"]);
    const ids = (await allPages({ packId: "dialga", limit: 100 })).map((c) => c.id);
    expect(ids).not.toContain("T-NONAME");
    expect(ids).not.toContain("T-NORARITY");
  });

  it("keeps only PROMO rarities in the promo pack", async () => {
    await addCard("T-PROMO-DIAMOND", "プロモのダイヤ", "◆", ["promo"]);
    const promo = await allPages({ packId: "promo", limit: 100 });
    expect(promo.length).toBeGreaterThan(50);
    expect(promo.every((c) => c.rarity.includes("PROMO"))).toBe(true);
    expect(promo.map((c) => c.id)).not.toContain("T-PROMO-DIAMOND");
  });

  it("excludeRare drops ☆☆, ☆☆☆, PROMO and the crown", async () => {
    await addCard("T-QQ", "はてなカード", "☆☆", ["dialga"]);
    const all = await allPages({ packId: "dialga", limit: 100 });
    expect(all.some((c) => ["☆☆", "☆☆☆", "👑"].includes(c.rarity))).toBe(true);
    const kept = await allPages({ packId: "dialga", limit: 100, excludeRare: true });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((c) => ["☆☆", "☆☆☆", "👑"].includes(c.rarity) || c.rarity.includes("PROMO"))).toEqual([]);
    expect(kept.some((c) => c.rarity === "☆")).toBe(true);
    expect((await listCards(database.db, { packId: "promo", excludeRare: true })).cards).toEqual([]);
  });

  it("refuses a pack that does not exist (unknown_pack_name), and rejects a forged cursor (invalid_cursor)", async () => {
    const refusal = (query: Parameters<typeof listCards>[1]) => listCards(database.db, query).then(() => null, (error: unknown) => error);
    const unknown = await refusal({ packId: "no-such-pack" });
    expect(unknown).toBeInstanceOf(CardError);
    expect(unknown).toMatchObject({ code: "unknown_pack_name", status: 400 });
    for (const cursor of ["bm90LWpzb24", "!!!"]) {
      const forged = await refusal({ packId: "dialga", cursor });
      expect(forged).toBeInstanceOf(CardError);
      expect(forged).toMatchObject({ code: "invalid_cursor", status: 400 });
    }
  });

  it("accepts docs/product-rules.md §3's other pack id set (picachu, chalizard, mew, arceus, shininghigh)", async () => {
    for (const [alias, id] of [["picachu", "pikachu"], ["chalizard", "charizard"], ["mew", "phantom"], ["arceus", "memorial"], ["shininghigh", "shining-high"]]) {
      expect((await listCards(database.db, { packId: alias, limit: 1 })).pack.id, alias).toBe(id);
    }
  });

  it("filters by rarity and by name within the pack", async () => {
    const crowns = await allPages({ packId: "dialga", rarity: "👑" });
    expect(crowns.length).toBeGreaterThan(0);
    expect(crowns.every((c) => c.rarity === "👑")).toBe(true);
    const dialga = await listCards(database.db, { packId: "dialga", q: "でぃあるが" });
    expect(dialga.cards.length).toBeGreaterThan(0);
    expect(dialga.cards.every((c) => c.name.includes("ディアルガ"))).toBe(true);
    expect(dialga.total).toBe(dialga.cards.length);
  });
});

describe("searchCards (global search, Japanese the way people type it)", () => {
  const names = async (q: string) => (await searchCards(database.db, q)).map((c) => c.name);

  it("ignores hiragana/katakana, full/half width and case", async () => {
    for (const q of ["ぴかちゅう", "ﾋﾟｶﾁｭｳ", "ピカチュウ", "ＰＩＫＡＣＨＵ", "Pikachu"]) {
      const found = await names(q);
      expect(found.length, q).toBeGreaterThan(0);
      expect(found.every((n) => n.includes("ピカチュウ")), q).toBe(true);
    }
  });

  it("finds a name written in kanji by its kana reading, folded the same way", async () => {
    for (const q of ["はかせ", "ハカセ", "ﾊｶｾ", "はかせの けんきゅう"]) {
      expect(await names(q), q).toContain("博士の研究");
    }
    expect(await names("ぎんがだん")).toContain("ギンガ団のしたっぱ");
    expect(await names("まぼろしのせきばん")).toContain("まぼろしの石板");
    expect(await names("はかせ")).not.toContain("ピカチュウ");
  });

  it("finds cards with one- and two-character queries and English name fragments", async () => {
    expect(await names("ピカ")).toContain("ピカチュウex");
    const one = await searchCards(database.db, "ピ");
    expect(one.length).toBe(20);
    expect((await names("pika")).some((n) => n.startsWith("ピカチュウ"))).toBe(true);
  });

  it("returns at most 10 per pack and 20 in all, each card once", async () => {
    const found = await searchCards(database.db, "ex");
    expect(found).toHaveLength(20);
    const perPack = new Map<string, number>();
    for (const c of found) perPack.set(c.packId, (perPack.get(c.packId) ?? 0) + 1);
    expect(Math.max(...perPack.values())).toBeLessThanOrEqual(10);
    expect(new Set(found.map((c) => c.id)).size).toBe(found.length);
  });

  it("treats %, _, \\ and quotes literally and shrugs off a 10,000-character query", async () => {
    await addCard("T-PERCENT", "100%ピース", "◆", ["dialga"]);
    await addCard("T-UNDER", "a_b'qz'カード\\", "◆", ["dialga"]);
    // The catalogue has names with ％ too (ジガルデ（10％フォルム）): every hit carries the sign.
    const percent = await names("%");
    expect(percent).toContain("100%ピース");
    expect(percent.every((n) => /[%％]/.test(n))).toBe(true);
    expect(await names("_")).toEqual(["a_b'qz'カード\\"]);
    expect(await names("\\")).toEqual(["a_b'qz'カード\\"]);
    expect(await names("'qz'")).toEqual(["a_b'qz'カード\\"]);
    expect(await names("%%%%")).toEqual([]);
    expect(await names("ピ".repeat(10_000))).toEqual([]);
    expect(await names("x' or 1=1 --")).toEqual([]);
    expect(await names("   ")).toEqual([]);
  });

  it("tradeableOnly keeps only tradeable rarities; excludePacks leaves packs out", async () => {
    const found = await searchCards(database.db, "ピカチュウ", { tradeableOnly: true });
    const tradeable = new Set(
      (await database.db.select({ code: rarities.code }).from(rarities).where(eq(rarities.tradeable, true))).map((r) => r.code),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => tradeable.has(c.rarity))).toBe(true);
    const all = await searchCards(database.db, "ex", { excludePacks: [] });
    const firstPack = all[0].packId;
    const without = await searchCards(database.db, "ex", { excludePacks: [firstPack] });
    expect(without.some((c) => c.packId === firstPack)).toBe(false);
    expect(without.length).toBeGreaterThan(0);
  });
});

describe("card lookup", () => {
  it("returns a card with its packs, and checks the pack in the by-pack lookup", async () => {
    const card = await getCard(database.db, "A1-001");
    expect(card).toMatchObject({ name: "フシギダネ", rarity: "◆" });
    expect(card!.packs.length).toBeGreaterThan(0);
    expect(await getCardInPack(database.db, card!.packs[0].id, "A1-001")).not.toBeNull();
    expect(await getCardInPack(database.db, "dialga", "A1-001")).toBeNull();
    expect(await getCard(database.db, "nope")).toBeNull();
  });
});
