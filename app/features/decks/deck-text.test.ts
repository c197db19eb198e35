import { describe, expect, it } from "vitest";
import { catalogueSetCode, deckToText, parseDeckText, printedSetCode } from "./deck-text";

describe("deck text", () => {
  it("writes the community format with promo sets as P-A", () => {
    const text = deckToText(
      [
        { name: "ピカチュウex", setCode: "A1", number: 96, count: 2, kind: "pokemon" },
        { name: "博士の研究", setCode: "PROMO-A", number: 7, count: 2, kind: "trainer" },
        { name: "自作カード", setCode: null, number: null, count: 1, kind: null },
      ],
      "en",
    );
    expect(text).toBe("Pokémon: 2\n2 ピカチュウex A1 96\n\nTrainer: 2\n2 博士の研究 P-A 7\n\nOther: 1\n1 自作カード\n");
    expect(printedSetCode("PROMO-B")).toBe("P-B");
    expect(catalogueSetCode("p-a")).toBe("PROMO-A");
    expect(catalogueSetCode("A2b")).toBe("A2b");
  });

  it("writes Japanese section names by default and the English format on request, both read back", () => {
    const cards = [
      { name: "ピカチュウex", setCode: "A1", number: 96, count: 2, kind: "pokemon" as const },
      { name: "博士の研究", setCode: "PROMO-A", number: 7, count: 2, kind: "trainer" as const },
      { name: "自作カード", setCode: null, number: null, count: 1, kind: null },
    ];
    const ja = deckToText(cards, "ja");
    expect(ja).toBe("ポケモン: 2\n2 ピカチュウex A1 96\n\nトレーナーズ: 2\n2 博士の研究 P-A 7\n\nその他: 1\n1 自作カード\n");
    expect(deckToText(cards)).toBe(ja);
    expect(deckToText(cards, "en")).toBe("Pokémon: 2\n2 ピカチュウex A1 96\n\nTrainer: 2\n2 博士の研究 P-A 7\n\nOther: 1\n1 自作カード\n");
    for (const text of [ja, deckToText(cards, "en")]) {
      const parsed = parseDeckText(text);
      expect(parsed.invalid).toEqual([]);
      expect(parsed.lines.map((l) => l.count)).toEqual([2, 2, 1]);
    }
  });

  it("reads card lines with or without a set, skips headers, and lists the rest by line number", () => {
    const parsed = parseDeckText("Pokémon: 4\r\n2 ピカチュウex A1 96\n２ サンダーex\n\nTrainer:3\n1x Poké Ball P-A 5\n???\n0 ゼロ A1 1");
    expect(parsed.lines.map((l) => [l.line, l.count, l.name, l.setCode, l.number])).toEqual([
      [2, 2, "ピカチュウex", "A1", 96],
      [3, 2, "サンダーex", null, null],
      [6, 1, "Poké Ball", "P-A", 5],
    ]);
    expect(parsed.invalid).toEqual([
      { line: 7, text: "???" },
      { line: 8, text: "0 ゼロ A1 1" },
    ]);
  });
});
