import { describe, expect, it } from "vitest";
import { hasSameRarityPair, pairsByRarity } from "./rules";

describe("pairsByRarity", () => {
  it("pairs given and wanted cards only within the same rarity, counting 1:1 trades", () => {
    const give = [
      { cardId: "a", rarity: "◆◆" },
      { cardId: "b", rarity: "◆◆" },
      { cardId: "c", rarity: "☆" },
    ];
    const want = [
      { cardId: "x", rarity: "◆◆" },
      { cardId: "y", rarity: "◆◆◆" },
    ];
    expect(pairsByRarity(give, want)).toEqual([{ rarity: "◆◆", give: ["a", "b"], want: ["x"], fitting: 1 }]);
    expect(hasSameRarityPair(give, want)).toBe(true);
  });

  it("finds nothing when no rarity is on both sides", () => {
    expect(pairsByRarity([{ cardId: "a", rarity: "◆" }], [{ cardId: "b", rarity: "◆◆" }])).toEqual([]);
    expect(hasSameRarityPair([], [{ cardId: "b", rarity: "◆◆" }])).toBe(false);
  });
});
