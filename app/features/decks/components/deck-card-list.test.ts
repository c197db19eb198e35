import { describe, expect, it } from "vitest";
import type { DeckCardView } from "#app/features/decks/types.ts";
import { addToDeck } from "./deck-card-list";

const view = (cardId: string, count: number): DeckCardView => ({
  cardId,
  id: cardId,
  imageFile: null,
  storedImage: null,
  speciesArt: null,
  element: null,
  cardType: null,
  stage: null,
  hp: null,
  weakness: null,
  retreatCost: null,
  attacks: null,
  name: cardId,
  nameEn: cardId,
  rarity: "◆",
  imageUrl: "",
  setCode: "A1",
  number: 1,
  packId: "dialga",
  packName: "",
  packNameEn: "",
  count,
  kind: "pokemon",
  basic: true,
  fossil: false,
  tradeable: true,
});

describe("addToDeck (docs/product-rules.md §4 deck card list)", () => {
  it("puts an added card on top, adds to a card already there up to 4, and ignores 0", () => {
    const list = [view("a", 2), view("b", 1)];
    expect(addToDeck(list, [view("c", 2)]).map((c) => [c.cardId, c.count])).toEqual([["c", 2], ["a", 2], ["b", 1]]);
    expect(addToDeck(list, [view("b", 2)]).map((c) => [c.cardId, c.count])).toEqual([["b", 3], ["a", 2]]);
    expect(addToDeck([view("a", 4)], [view("a", 2)])[0].count).toBe(4);
    expect(addToDeck(list, [view("z", 0)]).map((c) => c.cardId)).toEqual(["a", "b"]);
  });
});
