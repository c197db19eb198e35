import { describe, expect, it } from "vitest";
import { displayRarity, isExcludedAsRare, rarityFromSpelling, rarityRank } from "./rarity";

describe("rarityFromSpelling", () => {
  it("maps the spellings admins use to the display forms", () => {
    const cases: [string, string][] = [
      ["◆", "◆"],
      ["◇◇◇", "◆◆◆"],
      ["◆4", "◆◆◆◆"],
      ["◆４", "◆◆◆◆"],
      ["☆", "☆"],
      ["★★", "☆☆"],
      ["☆3", "☆☆☆"],
      ["👑", "👑"],
      ["Crown", "👑"],
      ["クラウン", "👑"],
      ["✦✦", "✦✦"],
      ["ssr", "✦✦"],
      ["ＲＲ", "◆◆◆◆"],
      [" sar ", "☆☆"],
      ["promo", "PROMO"],
      ["プロモ", "PROMO"],
      ["??", "☆☆"],
    ];
    for (const [spelling, display] of cases) expect(rarityFromSpelling(spelling), spelling).toBe(display);
  });

  it("rejects what is not a rarity", () => {
    for (const spelling of ["", "◆◆◆◆◆", "☆☆☆☆", "◆5", "SUPER", "=1+1", "<b>"]) {
      expect(rarityFromSpelling(spelling), spelling).toBeUndefined();
    }
  });
});

describe("docs/product-rules.md rarity rules", () => {
  it("shows ?? as two stars and ranks it there", () => {
    expect(displayRarity("??")).toBe("☆☆");
    expect(rarityRank("??")).toBe(rarityRank("☆☆"));
  });

  it("orders crown, ☆☆☆, ☆☆, ☆, then diamonds high to low (docs/product-rules.md §9)", () => {
    const order = ["👑", "☆☆☆", "☆☆", "☆", "◆◆◆◆", "◆◆◆", "◆◆", "◆"].map(rarityRank);
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(new Set(order).size).toBe(order.length);
  });

  it("excludeRare drops ☆☆, ☆☆☆, PROMO and the crown only (docs/product-rules.md §5)", () => {
    const excluded = ["☆☆", "☆☆☆", "PROMO", "PROMO-A", "👑", "crown", "??"];
    const kept = ["◆", "◆◆", "◆◆◆", "◆◆◆◆", "☆", "✦", "✦✦"];
    for (const r of excluded) expect(isExcludedAsRare(r), r).toBe(true);
    for (const r of kept) expect(isExcludedAsRare(r), r).toBe(false);
  });
});
