import { describe, expect, it } from "vitest";
import { matchesAllTerms, MAX_QUERY_LENGTH, searchTerms } from "./cards.server";
import { cardSearchText } from "./catalogue.server";

describe("searchTerms / matchesAllTerms", () => {
  const pikachu = cardSearchText("ピカチュウex", "Pikachu ex");

  it("finds a name whatever kana, width or case the query uses", () => {
    for (const q of ["ぴかちゅう", "ﾋﾟｶﾁｭｳ", "ピカチュウ", "ピカ", "ピ", "PIKA", "ｐｉｋａ", "pikachu EX", "ぴか ex"]) {
      expect(matchesAllTerms(pikachu, searchTerms(q)), q).toBe(true);
    }
    expect(matchesAllTerms(pikachu, searchTerms("ライチュウ"))).toBe(false);
  });

  it("treats LIKE wildcards and quotes as characters, and caps the query", () => {
    expect(matchesAllTerms(pikachu, searchTerms("%"))).toBe(false);
    expect(matchesAllTerms(pikachu, searchTerms("_"))).toBe(false);
    expect(matchesAllTerms(cardSearchText("100%ピース", ""), searchTerms("0%ピ"))).toBe(true);
    const long = searchTerms("あ".repeat(10_000));
    expect(long.join("").length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(searchTerms("a b c d e f g")).toHaveLength(4);
    expect(searchTerms("   ")).toEqual([]);
  });
});
