import { describe, expect, it } from "vitest";
import { japaneseCardName, readCatalogue } from "./catalogue.server";

const names = new Map([
  ["pikachu", "ピカチュウ"],
  ["raichu", "ライチュウ"],
  ["charizard", "リザードン"],
  ["farfetch'd", "カモネギ"],
]);

describe("japaneseCardName", () => {
  it("keeps ex, メガ and regional forms the way Japanese cards print them", () => {
    expect(japaneseCardName("Pikachu", names)).toBe("ピカチュウ");
    expect(japaneseCardName("Pikachu ex", names)).toBe("ピカチュウex");
    expect(japaneseCardName("Alolan Raichu ex", names)).toBe("アローラライチュウex");
    expect(japaneseCardName("Mega Charizard Y ex", names)).toBe("メガリザードンYex");
    expect(japaneseCardName("Farfetch’d", names)).toBe("カモネギ");
  });
  it("keeps the English name when it cannot derive one honestly", () => {
    expect(japaneseCardName("Professor's Research", names)).toBe("Professor's Research");
  });
});

describe("readCatalogue", () => {
  it("links every card to at least one pack and gives every card a unique id", () => {
    const { cards, packs } = readCatalogue();
    const packIds = new Set(packs.map((p) => p.id));
    expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);
    for (const card of cards) {
      expect(card.packIds.length).toBeGreaterThan(0);
      for (const id of card.packIds) expect(packIds.has(id)).toBe(true);
    }
  });
});
