import { describe, expect, it } from "vitest";
import { readCatalogue } from "./catalogue.server";
import { checkReading, resolveJapaneseName } from "./japanese-names";
import { FORM_NAMES, KNOWN_SPELLINGS, TRAINER_NAMES } from "./names-ja";
import { namesReport } from "./names-report.server";
import { decodeToken, matchReading, romanisedToken } from "./romanisation";

const catalogue = readCatalogue();
const catalogueTokens = new Set(
  catalogue.cards.map((c) => (c.imageFile ? decodeToken(romanisedToken(c.imageFile) ?? "").replace(/ex$/, "") : "")),
);

describe("Japanese card names against the catalogue's romanised image names", () => {
  it("every Japanese name of the catalogue has a reading that matches its card's token", () => {
    let japanese = 0;
    for (const card of catalogue.cards) {
      if (card.name === card.nameEn) {
        expect(card.nameReading, card.id).toBe("");
        continue;
      }
      japanese++;
      const token = romanisedToken(card.imageFile ?? "");
      expect(token, card.id).not.toBeNull();
      expect(card.nameReading, `${card.id} ${card.name}`).not.toBe("");
      expect(checkReading(card.nameReading!, token!), `${card.id} ${card.name} / ${token}`).not.toBeNull();
    }
    expect(japanese).toBeGreaterThan(3000);
  });

  it("checks each trainer and form entry against its own token, and each entry is a catalogue card", () => {
    for (const [token, [name, reading]] of Object.entries({ ...TRAINER_NAMES, ...FORM_NAMES })) {
      expect(checkReading(reading, token), `${token} ${name}`).not.toBeNull();
      expect(catalogueTokens.has(token), token).toBe(true);
    }
  });

  it("lists a known spelling difference only where the comparison really fails", () => {
    for (const [token, reading] of Object.entries(KNOWN_SPELLINGS)) {
      expect(matchReading(reading, token), token).toBe("none");
      expect(catalogueTokens.has(token), token).toBe(true);
    }
  });

  it("accepts the catalogue's spellings and refuses another name", () => {
    expect(checkReading("ふしぎだね", "FUSHIGIDANE")).toBe("exact");
    expect(checkReading("かすみ", "KASUMI")).toBe("exact");
    expect(checkReading("はかせのけんきゅう", "HAKASENOKENKYU")).toBe("exact");
    expect(checkReading("なんじゃも", "NANJYAMO")).toBe("exact");
    expect(checkReading("りざーどん", "LIZARDONex")).toBe("exact");
    expect(checkReading("ふりーざー", "FREEZER")).toBe("outline");
    expect(checkReading("ふぁいやー", "FIRE")).toBe("known");
    expect(checkReading("かすみ", "SAKAKI")).toBeNull();
    expect(checkReading("ぴかちゅう", "RAICHU")).toBeNull();
    expect(checkReading("らいちゅう", "PIKACHU")).toBeNull();
    expect(checkReading("みゅう", "MEWTWO")).toBeNull();
    expect(checkReading("ふぁいやー", "THUNDER")).toBeNull();
  });

  it("keeps a card English when the table's name does not match the card's token", () => {
    const resolved = resolveJapaneseName({ token: "KASUMI", english: "Misty", trainer: true, speciesName: (e) => e });
    expect(resolved).toMatchObject({ name: "カスミ", reading: "かすみ", source: "trainer" });
    const wrong = resolveJapaneseName({ token: "RAICHU", english: "Raichu", trainer: false, speciesName: () => "ピカチュウ" });
    expect(wrong).toMatchObject({ name: "Raichu", reading: "", check: null });
  });

  it("names trainers, forms and packs in Japanese, and the report counts them", () => {
    const byId = new Map(catalogue.cards.map((c) => [c.id, c]));
    expect(byId.get("A1-223")).toMatchObject({ name: "サカキ", nameReading: "さかき", cardType: "supporter" });
    const research = catalogue.cards.find((c) => c.nameEn === "Professor’s Research" || c.nameEn === "Professor's Research");
    expect(research).toMatchObject({ name: "博士の研究", nameReading: "はかせのけんきゅう" });
    expect(catalogue.cards.find((c) => c.nameEn === "Team Galactic Grunt")?.name).toBe("ギンガ団のしたっぱ");
    expect(catalogue.cards.find((c) => c.nameEn === "Teal Mask Ogerpon ex")?.name).toBe("オーガポン（みどりのめん）ex");
    expect(catalogue.cards.find((c) => c.nameEn === "Castform Sunny Form")?.name).toBe("ポワルン（たいようのすがた）");
    const report = namesReport(catalogue);
    expect(report.unverified).toEqual([]);
    expect(report.cards.japanese).toBe(catalogue.cards.filter((c) => c.name !== c.nameEn).length);
    expect(report.trainers.japanese).toBeGreaterThan(200);
    // Every Pokémon card has its Japanese name (species names plus ex, メガ and form words).
    expect(report.pokemon.japanese).toBe(report.pokemon.total);
    expect(report.englishCards.filter((c) => !c.trainer)).toEqual([]);
    // Every set and pack by its verified Japanese name.
    expect(report.sets).toEqual({ japanese: 22, total: 22 });
    expect(report.englishSets).toEqual([]);
    expect(report.packs).toEqual({ japanese: report.packs.total, total: catalogue.packs.length });
    expect(report.englishPacks).toEqual([]);
  });

  it("names the B-series trainers as the game's Japanese data does, and B4's items as Game8's card list does", () => {
    const byId = new Map(catalogue.cards.map((c) => [c.id, c]));
    expect(byId.get("B3a-072")).toMatchObject({ name: "オーリム博士", nameReading: "おーりむはかせ", nameEn: "Professor Sada" });
    expect(byId.get("B3b-067")).toMatchObject({ name: "こいぬ大好きガール", nameReading: "こいぬだいすきがーる" });
    expect(byId.get("B3-155")).toMatchObject({ name: "結界のフィールド", nameReading: "けっかいのふぃーるど" });
    expect(byId.get("B4-151")).toMatchObject({ name: "シャガ", nameEn: "Drayden" });
    // A token that is the English name: accepted as a known spelling of this one name only.
    expect(byId.get("A4-159")).toMatchObject({ name: "釣り人", nameReading: "つりびと" });
    expect(checkReading("つりびと", "FISHER")).toBe("known");
    expect(checkReading("やまおとこ", "FISHER")).toBeNull();
    // The game writes these fossils in katakana.
    expect(byId.get("B2-144")?.name).toBe("アゴの化石");
    // B4's items, fossils and stadiums, each still checked against its token.
    expect(byId.get("B4-145")).toMatchObject({ name: "おとりよせパッド", nameReading: "おとりよせぱっど", nameEn: "Order Pad" });
    expect(byId.get("B4-146")).toMatchObject({ name: "ツメの化石", nameEn: "Claw Fossil" });
    expect(byId.get("B4-154")).toMatchObject({ name: "いやしの海辺", nameReading: "いやしのうみべ" });
    expect(checkReading("いんちきばり", "INCHIKIBARI")).toBe("exact");
    // ヴェール against the token's English VEIL: the consonant outline, not every sound, agrees.
    expect(checkReading("くりあゔぇーる", "KURIAVEIL")).toBe("outline");
    // A translated name that is not the card's is refused by the same check.
    expect(checkReading("だましのはり", "INCHIKIBARI")).toBeNull();
    // Every trainer now has its Japanese name; the report lists no English card.
    const report = namesReport(catalogue);
    expect(report.englishCards).toEqual([]);
    expect(report.trainers.japanese).toBe(report.trainers.total);
  });
});
