import { describe, expect, it } from "vitest";
import { cardName } from "#app/lib/card-name.ts";

describe("cardName", () => {
  it("reads the English name in English and the Japanese one otherwise", () => {
    const card = { name: "ピカチュウ", nameEn: "Pikachu" };
    expect(cardName(card, "en")).toBe("Pikachu");
    expect(cardName(card, "ja")).toBe("ピカチュウ");
  });

  it("falls back to the Japanese name when the catalogue has no English one", () => {
    expect(cardName({ name: "ピカチュウ", nameEn: "" }, "en")).toBe("ピカチュウ");
    expect(cardName({ name: "ピカチュウ" }, "en")).toBe("ピカチュウ");
  });
});
