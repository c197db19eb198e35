import { describe, expect, it } from "vitest";
import { foldForSearch } from "./search-text";

describe("foldForSearch", () => {
  it("folds hiragana, half-width katakana and katakana to one form", () => {
    expect(foldForSearch("ぴかちゅう")).toBe("ピカチュウ");
    expect(foldForSearch("ﾋﾟｶﾁｭｳ")).toBe("ピカチュウ");
    expect(foldForSearch("ピカチュウ")).toBe("ピカチュウ");
  });
  it("folds full-width Latin and case", () => {
    expect(foldForSearch("ＰＩＫＡ")).toBe("pika");
    expect(foldForSearch("  Pikachu   EX ")).toBe("pikachu ex");
  });
});
