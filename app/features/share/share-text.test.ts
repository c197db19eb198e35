import { describe, expect, it } from "vitest";
import { articleShareText, deckShareText, offerShareText } from "./share-text";

const card = (name: string, nameEn: string) => ({ name, nameEn });

describe("share texts", () => {
  it("an offer reads 譲:… 求:… with its cards, 何でも可 for an open side, and at most three a side", () => {
    expect(offerShareText("ja", { give: [card("ゼニガメ", "Squirtle")], want: [card("ヒトカゲ", "Charmander")], giveAny: false, wantAny: false })).toBe(
      "【トレード募集】譲:ゼニガメ 求:ヒトカゲ｜トレポケ",
    );
    expect(offerShareText("en", { give: [card("ゼニガメ", "Squirtle")], want: [], giveAny: false, wantAny: true })).toBe(
      "[Trade offer] Give: Squirtle / Want: anything | Torepoke",
    );
    const five = ["ア", "イ", "ウ", "エ", "オ"].map((name) => card(name, name));
    expect(offerShareText("ja", { give: five, want: [], giveAny: false, wantAny: true })).toBe("【トレード募集】譲:ア・イ・ウ ほか2種 求:何でも可｜トレポケ");
  });

  it("a deck and an article say what kind of page they are and name it", () => {
    expect(deckShareText("ja", { name: "ピカチュウexデッキ", tier: 1 })).toBe("【デッキレシピ】ピカチュウexデッキ（Tier 1）｜トレポケ");
    expect(deckShareText("en", { name: "Pikachu ex", tier: 2 })).toBe("[Deck recipe] Pikachu ex (Tier 2) | Torepoke");
    expect(articleShareText("ja", { title: "最強デッキまとめ", categoryLabel: "ガイド" })).toBe("【ガイド】最強デッキまとめ｜トレポケ");
  });
});
