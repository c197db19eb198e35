import { describe, expect, it } from "vitest";
import { readCatalogue } from "./catalogue.server";
import { vendoredCatalogueSource } from "./catalogue-source.server";
import { speciesEvolvesFrom, speciesEvolvesInto } from "./game-facts.server";
import { isJapanesePackName, isTrainer, namesReport } from "./names-report.server";

const catalogue = readCatalogue();

describe("what the catalogue says, and what it does not", () => {
  it("names every Pokémon card in Japanese", () => {
    const english = catalogue.cards.filter((c) => !isTrainer(c) && c.name === c.nameEn && /[A-Za-z]{2,}/.test(String(c.name)));
    expect(english.map((c) => `${c.id} ${c.name}`)).toEqual([]);
  });

  it("gives no type to a card no source describes (B3b, B4), never 無色, and the facts where ptcgp-data has them", () => {
    const b4 = catalogue.cards.filter((c) => c.setCode === "B4" && !isTrainer(c));
    expect(b4.length).toBeGreaterThan(200);
    expect(b4.every((c) => c.element === null && c.hp === null && c.retreatCost === null && c.attacks === null)).toBe(true);
    const a1 = catalogue.cards.find((c) => c.id === "A1-097");
    expect(a1).toMatchObject({ nameEn: "Magnemite", element: "lightning", hp: 60, weakness: "fighting", retreatCost: 1, stage: "basic" });
    // A B3a card: ptcgp-data's facts reach the newest set it covers, matched by name there.
    const floatzel = catalogue.cards.find((c) => c.id === "B3a-010");
    expect(floatzel).toMatchObject({ nameEn: "Floatzel", element: "water", hp: 100, attacks: [{ cost: ["water"], damage: 10, suffix: "+" }] });
    // ptcgp-data's B3a-001 is Potion, the set's is Surskit: no facts rather than another card's.
    const surskit = catalogue.cards.find((c) => c.id === "B3a-001");
    expect(surskit).toMatchObject({ nameEn: "Surskit", cardType: "pokemon", element: null, hp: null, attacks: null });
  });

  it("reports per set what the catalogue lacks", () => {
    const b4 = namesReport(catalogue).missingFacts.find((r) => r.setCode === "B4");
    expect(b4 && b4.type).toBe(b4?.pokemon);
    expect(namesReport(catalogue).missingFacts.find((r) => r.setCode === "A1")).toBeUndefined();
    expect(namesReport(catalogue).missingFacts.find((r) => r.setCode === "B2")).toBeUndefined();
  });

  it("uses verified set names and otherwise the bare set code, never English, on Japanese pages", () => {
    const bySet = new Map(catalogue.packs.map((p) => [p.setCode, p]));
    expect(bySet.get("A4a")?.nameJa).toBe("未知なる水域");
    expect(bySet.get("B1a")?.nameJa).toBe("紅蓮ブレイズ");
    expect(bySet.get("A4b")).toMatchObject({ nameJa: "ハイクラスパックex", setNameJa: "ハイクラスパックex", nameEn: "Deluxe Pack: ex" });
    expect(bySet.get("B3")).toMatchObject({ nameJa: "波動ビート", nameEn: "Pulsing Aura" });
    expect(bySet.get("B4")).toMatchObject({ nameJa: "天空の支配者", nameEn: "Ruler of the Skies" });
    expect(catalogue.packs.filter((p) => !isJapanesePackName(p))).toEqual([]);
    // A set whose Japanese name is not verified yet is named by its code, not by its English name.
    const source = vendoredCatalogueSource();
    const next = { code: "B5", releaseDate: "2027-01-28", name: { en: "Some Future Set" }, packs: ["Some Future Set"] };
    const future = readCatalogue({ ...source, sets: [...source.sets, next] }).packs.find((p) => p.setCode === "B5");
    expect(future).toMatchObject({ nameJa: "B5", setNameJa: "B5", nameEn: "Some Future Set" });
    expect(isJapanesePackName({ nameJa: "Some Future Set" })).toBe(false);
    expect(isJapanesePackName({ nameJa: "ハイクラスパックex" })).toBe(true);
    expect(isJapanesePackName({ nameJa: "ハイクラスパックexpress" })).toBe(false);
  });

  it("knows evolution lines by species, also for sets the package has not described", () => {
    expect(speciesEvolvesFrom("Charizard ex")).toBe("Charmeleon");
    expect(speciesEvolvesFrom("Charmeleon")).toBe("Charmander");
    expect(speciesEvolvesFrom("Charmander")).toBeNull();
    expect(speciesEvolvesInto("Eevee")).toEqual(expect.arrayContaining(["Vaporeon", "Jolteon", "Flareon"]));
  });
});
