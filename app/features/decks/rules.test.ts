import { describe, expect, it } from "vitest";
import { checkDeck, copyLimitName, type RuleCard } from "./rules";

const card = (name: string, count: number, over: Partial<RuleCard> = {}): RuleCard => ({ cardId: name, name, nameEn: null, count, kind: "pokemon", basic: true, ...over });

describe("checkDeck", () => {
  it("counts copies by name across printings, and ex is another name", () => {
    expect(copyLimitName({ name: "ピカチュウex", nameEn: "Pikachu ex" })).toBe("pikachu ex");
    expect(copyLimitName({ name: "ピカチュウ", nameEn: "Pikachu" })).not.toBe(copyLimitName({ name: "ピカチュウex", nameEn: "Pikachu ex" }));
    const cards = [card("ピカチュウex", 2, { cardId: "a", nameEn: "Pikachu ex" }), card("ピカチュウex", 1, { cardId: "b", nameEn: "Pikachu  EX" }), card("ピカチュウ", 2, { nameEn: "Pikachu" })];
    expect(checkDeck(cards, ["electric"]).problems).toContainEqual({ code: "too_many_copies", name: "ピカチュウex", count: 3 });
  });

  it("reports every broken rule at once", () => {
    const result = checkDeck([card("かいのカセキ", 2, { kind: "trainer", basic: false })], ["grass", "fire", "water", "electric"]);
    expect(result.status).toBe("illegal");
    expect(result.problems.map((p) => p.code)).toEqual(["card_count", "no_basic", "energy_count"]);
  });

  it("says unknown when the Basic rule cannot be decided, and a known Basic settles it", () => {
    const unknown = card("謎", 2, { kind: null, basic: null });
    const trainers = Array.from({ length: 9 }, (_, i) => card(`t${i}`, 2, { kind: "trainer", basic: false }));
    expect(checkDeck([unknown, ...trainers], ["dark"])).toMatchObject({ status: "unknown", basicUnknown: true, unknownCards: ["謎"] });
    const withBasic = [unknown, card("ヤミラミ", 2), ...trainers.slice(1)];
    expect(checkDeck(withBasic, ["dark"])).toMatchObject({ status: "legal", basicUnknown: false, unknownCards: ["謎"] });
  });
});
