import { describe, expect, it } from "vitest";
import { toListItem } from "./offer-views.server";
import type { OfferView } from "./types";

const card = { name: "フシギダネ", nameEn: "Bulbasaur", rarity: "◆", imageUrl: "", imageFile: null, storedImage: null, speciesArt: null, element: "grass", cardType: "pokemon", stage: "basic", hp: 70, setCode: "A1", number: 1 };
const offer: OfferView = {
  id: "o1",
  ownerId: "u1",
  ownerName: "サトシ",
  ownerCompletedTrades: 0,
  ownerLastActiveAt: "2026-01-01T00:00:00.000Z",
  status: "open",
  comment: "",
  partnerId: null,
  give: [{ ...card, cardId: "A1-001", count: 2 }],
  want: [{ ...card, cardId: "A1-002", count: 1, name: "イーユイ", nameEn: "", element: null, setCode: null, number: null, storedImage: "/uploads/cards/a1-002" }],
  giveAny: false,
  wantAny: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  bumpedAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2026-01-08T00:00:00.000Z",
  nextBumpAt: null,
};

describe("an offer as a list page sends it", () => {
  it("gives each chip only what it reads, leaving out the fields a card has none of", () => {
    const item = toListItem(offer, "ja");
    expect(item.give).toEqual([{ cardId: "A1-001", count: 2, name: "フシギダネ", rarity: "◆", element: "grass", cardType: "pokemon", setCode: "A1", number: 1 }]);
    expect(item.want).toEqual([{ cardId: "A1-002", count: 1, name: "イーユイ", rarity: "◆", cardType: "pokemon", storedImage: "/uploads/cards/a1-002" }]);
    expect(item).not.toHaveProperty("expiresAt");
    expect(item).not.toHaveProperty("partnerId");
  });

  it("names the cards in the reader's language, in Japanese where a card has no English name", () => {
    const item = toListItem(offer, "en");
    expect(item.give[0].name).toBe("Bulbasaur");
    expect(item.want[0].name).toBe("イーユイ");
    expect(item.give[0]).not.toHaveProperty("nameEn");
  });
});
