import { describe, expect, it } from "vitest";
import { displaySlotRates, packOdds, slotNewChance, type PackPool } from "./pack-odds";

const slot = (rates: Record<string, number>) => new Map(Object.entries(rates));

describe("pack odds", () => {
  it("matches a hand-computed case: two kinds, a rarity with no card, weights not summing to 100", () => {
    // Pool: ◆ 4 cards, 1 missing; ◆◆ 2 cards, 2 missing; ☆ 5 cards, 0 missing; no 👑 card at all.
    const pool: PackPool = new Map([
      ["◆", { total: 4, missing: 1 }],
      ["◆◆", { total: 2, missing: 2 }],
      ["☆", { total: 5, missing: 0 }],
    ]);
    // Regular kind (appearance 45 of 50 → 0.9):
    //   slot 1 {◆ 100%}: p = 1.00 × 1/4 = 0.25
    //   slot 2 {◆◆ 50%, ☆ 40%, 👑 10%}: p = 0.5 × 2/2 + 0.4 × 0/5 + 0.1 × (no 👑 card) 0 = 0.5
    //   P(≥1) = 1 − (1 − 0.25)(1 − 0.5) = 1 − 0.375 = 0.625;  E = 0.25 + 0.5 = 0.75
    // Rare kind (appearance 5 of 50 → 0.1), two slots {☆ 60%, ◆◆ 40%}: p = 0.4 × 2/2 = 0.4 each
    //   P(≥1) = 1 − 0.6 × 0.6 = 0.64;  E = 0.8
    // Mixed: P = 0.9 × 0.625 + 0.1 × 0.64 = 0.5625 + 0.064 = 0.6265
    //        E = 0.9 × 0.75 + 0.1 × 0.8 = 0.675 + 0.08 = 0.755
    const regular = { appearanceRate: 45, slots: [slot({ "◆": 100 }), slot({ "◆◆": 50, "☆": 40, "👑": 10 })] };
    const rare = { appearanceRate: 5, slots: [slot({ "☆": 60, "◆◆": 40 }), slot({ "☆": 60, "◆◆": 40 })] };
    expect(slotNewChance(regular.slots[0], pool)).toBeCloseTo(0.25, 12);
    expect(slotNewChance(regular.slots[1], pool)).toBeCloseTo(0.5, 12);
    const odds = packOdds([regular, rare], pool);
    expect(odds.atLeastOne).toBeCloseTo(0.6265, 12);
    expect(odds.expected).toBeCloseTo(0.755, 12);
  });

  it("gives nothing new when nothing is missing, and a sure new card when everything is", () => {
    const kinds = [{ appearanceRate: 1, slots: [slot({ "◆": 100 }), slot({ "◆": 100 })] }];
    expect(packOdds(kinds, new Map([["◆", { total: 3, missing: 0 }]]))).toEqual({ atLeastOne: 0, expected: 0 });
    expect(packOdds(kinds, new Map([["◆", { total: 3, missing: 3 }]]))).toEqual({ atLeastOne: 1, expected: 2 });
    expect(packOdds([], new Map())).toEqual({ atLeastOne: 0, expected: 0 });
  });

  it("reads the catalogue's codes as display rarities, a foil code as its rarity, an unknown code as nothing", () => {
    expect(displaySlotRates({ C: 23, CF: 20, U: 10, UR: 0.5, AR: 12, XYZ: 5 })).toEqual(
      new Map([
        ["◆", 43],
        ["◆◆", 10],
        ["👑", 0.5],
        ["☆", 12],
      ]),
    );
  });
});
