import { describe, expect, it } from "vitest";
import { readCatalogue } from "./catalogue.server";
import { speciesEvolvesFrom, speciesEvolvesInto } from "./game-facts.server";
import { isTrainer, namesReport } from "./names-report.server";

const catalogue = readCatalogue();

describe("what the catalogue says, and what it does not", () => {
  it("names every Pokémon card in Japanese", () => {
    const english = catalogue.cards.filter((c) => !isTrainer(c) && c.name === c.nameEn && /[A-Za-z]{2,}/.test(String(c.name)));
    expect(english.map((c) => `${c.id} ${c.name}`)).toEqual([]);
  });

  it("gives no type to a card whose set the package has not described (B2–B3), never 無色", () => {
    const b3 = catalogue.cards.filter((c) => c.setCode === "B3" && !isTrainer(c));
    expect(b3.length).toBeGreaterThan(0);
    expect(b3.every((c) => c.element === null && c.hp === null && c.retreatCost === null)).toBe(true);
    const a1 = catalogue.cards.find((c) => c.id === "A1-097");
    expect(a1?.element).toBe("lightning");
    // The package's 50 HP / 1 retreat for every card is a placeholder, not data.
    expect(a1?.hp).toBeNull();
  });

  it("reports per set what the catalogue lacks", () => {
    const b3 = namesReport(catalogue).missingFacts.find((r) => r.setCode === "B3");
    expect(b3 && b3.type).toBe(b3?.pokemon);
    expect(namesReport(catalogue).missingFacts.find((r) => r.setCode === "A1")?.type).toBe(0);
  });

  it("uses verified set names and otherwise the set code with the English name in parentheses", () => {
    const bySet = new Map(catalogue.packs.map((p) => [p.setCode, p]));
    expect(bySet.get("A4a")?.nameJa).toBe("未知なる水域");
    expect(bySet.get("B1a")?.nameJa).toBe("紅蓮ブレイズ");
    expect(bySet.get("B3")?.nameJa).toBe("B3（Pulsing Aura）");
    expect(catalogue.packs.filter((p) => p.nameJa === p.nameEn && !String(p.setCode).startsWith("PROMO"))).toEqual([]);
  });

  it("knows evolution lines by species, also for sets the package has not described", () => {
    expect(speciesEvolvesFrom("Charizard ex")).toBe("Charmeleon");
    expect(speciesEvolvesFrom("Charmeleon")).toBe("Charmander");
    expect(speciesEvolvesFrom("Charmander")).toBeNull();
    expect(speciesEvolvesInto("Eevee")).toEqual(expect.arrayContaining(["Vaporeon", "Jolteon", "Flareon"]));
  });
});
