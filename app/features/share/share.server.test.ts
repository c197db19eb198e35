import { describe, expect, it } from "vitest";
import { deckShareModel, offerShareModel, shareImagePath, shareRevision } from "./share.server";
import { rarityText } from "./templates.server";

const card = (name: string, rarity: string, element: string | null, count = 1) => ({ name, rarity, element, cardType: element ? "pokemon" : "item", count });

describe("share image models", () => {
  const deck = {
    name: "ピカチュウexデッキ",
    tier: 1,
    energyTypes: ["electric"],
    cards: [card("ピカチュウex", "◆◆◆◆", "lightning", 2), card("モンスターボール", "◆", null, 2)],
    legality: { total: 4 },
  } as unknown as Parameters<typeof deckShareModel>[0];

  it("draws a deck's name, tier, energy and cards, with a revision that changes with any of them", () => {
    const model = deckShareModel(deck);
    expect(model.labels).toEqual({ deckRecipe: "デッキレシピ", tier: "Tier 1", total: "4枚" });
    expect(model.energies).toEqual([{ label: "雷", color: expect.any(String) }]);
    expect(model.cards.map((c) => [c.name, c.frame, c.count])).toEqual([
      ["ピカチュウex", "lightning", 2],
      ["モンスターボール", "trainer", 2],
    ]);
    const revision = shareRevision("deck", model);
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    expect(shareRevision("deck", deckShareModel(deck))).toBe(revision);
    expect(shareRevision("deck", deckShareModel({ ...deck, name: "別のデッキ" }))).not.toBe(revision);
    expect(shareRevision("deck", deckShareModel({ ...deck, tier: 2 }))).not.toBe(revision);
    expect(shareImagePath("deck", "abc", model)).toBe(`/share/deck/abc/${revision}.webp`);
  });

  it("carries the Pokémon's artwork of each tile, so loading the art gives the image a new revision", () => {
    const art = "/uploads/card-art/25-0123456789abcdef.webp";
    const withArt = {
      ...deck,
      cards: [{ ...card("ピカチュウex", "◆◆◆◆", "lightning", 2), speciesArt: art }, { ...card("モンスターボール", "◆", null, 2), speciesArt: art }],
    } as unknown as Parameters<typeof deckShareModel>[0];
    const model = deckShareModel(withArt);
    // A trainer never shows a Pokémon's artwork, even if a row carried one.
    expect(model.cards.map((c) => c.art)).toEqual([art, null]);
    expect(shareRevision("deck", model)).not.toBe(shareRevision("deck", deckShareModel(deck)));
  });

  it("holds only the tiles the image draws, so art of a deck's 21st row or an offer's 4th card changes nothing", () => {
    const art = (n: number) => `/uploads/card-art/${n}-0123456789abcdef.webp`;
    const rows = (n: number, artOf: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => ({ ...card(`ポケモン${i}`, "◆", "grass"), speciesArt: artOf(i) }));
    const big = { ...deck, cards: rows(25, art) } as unknown as Parameters<typeof deckShareModel>[0];
    const model = deckShareModel(big);
    expect(model.cards.map((c) => c.name)).toEqual(Array.from({ length: 20 }, (_, i) => `ポケモン${i}`));
    const otherTail = { ...deck, cards: rows(25, (i) => (i >= 20 ? art(999) : art(i))) } as unknown as Parameters<typeof deckShareModel>[0];
    expect(shareRevision("deck", deckShareModel(otherTail))).toBe(shareRevision("deck", model));

    const offer = { ownerName: "トレーナー", give: rows(10, art), want: rows(4, art), status: "open" } as unknown as Parameters<typeof offerShareModel>[0];
    const offerModel = offerShareModel(offer);
    expect([offerModel.give.length, offerModel.want.length]).toEqual([3, 3]);
    expect([offerModel.labels.moreGive, offerModel.labels.moreWant]).toEqual([expect.stringContaining("7"), expect.stringContaining("1")]);
    const otherOffer = { ...offer, give: rows(10, (i) => (i >= 3 ? art(999) : art(i))) } as unknown as Parameters<typeof offerShareModel>[0];
    expect(shareRevision("offer", offerShareModel(otherOffer))).toBe(shareRevision("offer", offerModel));
  });

  it("says so across an offer that no longer takes answers", () => {
    const offer = { ownerName: "トレーナー", give: [card("フシギダネ", "◆", "grass")], want: [card("ゼニガメ", "◆", "water")], status: "open" } as unknown as Parameters<typeof offerShareModel>[0];
    expect(offerShareModel(offer).ended).toBeNull();
    expect(offerShareModel({ ...offer, status: "expired" }).ended).toBe("この募集は期限切れです");
    expect(offerShareModel({ ...offer, status: "closed" }).ended).toBe("この募集は終了しました");
    expect(shareRevision("offer", offerShareModel({ ...offer, status: "closed" }))).not.toBe(shareRevision("offer", offerShareModel(offer)));
  });

  it("writes out the rarities the font cannot draw", () => {
    expect(rarityText("👑")).toBe("クラウン");
    expect(rarityText("✦✦")).toBe("色違い2");
    expect(rarityText("色違い✦1")).toBe("色違い1");
    expect(rarityText("◆◆◆")).toBe("◆◆◆");
    expect(rarityText("PROMO")).toBe("プロモ");
  });
});
