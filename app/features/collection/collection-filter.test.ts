import { describe, expect, it } from "vitest";
import { parseTypedCount, passesFilter, progressPercent, steppedCount } from "./collection-filter";

const card = { id: "A1-001", rarity: "◆", element: "grass", cardType: "pokemon", searchText: "ふしぎだね bulbasaur", packIds: ["mewtwo"] };

describe("collection filter", () => {
  it("filters by owned state: 持っている, 持っていない, ダブり", () => {
    expect(passesFilter(card, 0, { owned: "have" })).toBe(false);
    expect(passesFilter(card, 1, { owned: "have" })).toBe(true);
    expect(passesFilter(card, 1, { owned: "missing" })).toBe(false);
    expect(passesFilter(card, 1, { owned: "duplicate" })).toBe(false);
    expect(passesFilter(card, 2, { owned: "duplicate" })).toBe(true);
  });

  it("filters by pack, rarity, type (trainer apart) and folded search terms", () => {
    expect(passesFilter(card, 0, { pack: "pikachu" })).toBe(false);
    expect(passesFilter(card, 0, { rarity: "◆◆" })).toBe(false);
    expect(passesFilter(card, 0, { type: "grass" })).toBe(true);
    expect(passesFilter(card, 0, { type: "trainer" })).toBe(false);
    expect(passesFilter({ ...card, element: null, cardType: "supporter" }, 0, { type: "trainer" })).toBe(true);
    expect(passesFilter(card, 0, { terms: ["ふしぎ"] })).toBe(true);
    expect(passesFilter(card, 0, { terms: ["ぴか"] })).toBe(false);
  });

  it("rounds progress down, steps and typed counts stay in 0..99", () => {
    expect(progressPercent(999, 1000)).toBe(99);
    expect(progressPercent(0, 0)).toBe(0);
    expect(steppedCount(99, 1)).toBe(99);
    expect(steppedCount(0, -1)).toBe(0);
    expect(parseTypedCount("１２")).toBe(12);
    expect(parseTypedCount("100")).toBeNull();
    expect(parseTypedCount("-1")).toBeNull();
  });
});
