import { describe, expect, it } from "vitest";
import { cardPrint } from "./card-print";

describe("cardPrint", () => {
  it("writes the set code and the three-digit number players use", () => {
    expect(cardPrint({ setCode: "A1", number: 4 })).toBe("A1 004");
    expect(cardPrint({ setCode: "B1a", number: 112 })).toBe("B1a 112");
  });
  it("keeps the set alone without a number, and nothing without a set", () => {
    expect(cardPrint({ setCode: "P-A", number: null })).toBe("P-A");
    expect(cardPrint({ setCode: null, number: 7 })).toBeNull();
  });
});
