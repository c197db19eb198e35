import { describe, expect, it } from "vitest";
import { cardArt, elementOf, isExCard, trainerMessage } from "./card-face";

describe("cardArt", () => {
  const face = { imageUrl: "", imageFile: "cPK_10_000010_00_FUSHIGIDANE_C.webp", storedImage: null };

  it("takes the card's own imageUrl first, then our stored art, then the base URL, else nothing", () => {
    expect(cardArt({ ...face, imageUrl: "https://img.example/a.png", storedImage: "/uploads/cards/A1-001-x" }, "https://cdn.example/")).toEqual({
      src: "https://img.example/a.png",
      full: "https://img.example/a.png",
    });
    expect(cardArt({ ...face, storedImage: "/uploads/cards/A1-001-x" }, "https://cdn.example")).toEqual({
      src: "/uploads/cards/A1-001-x-thumb.webp",
      srcSet: "/uploads/cards/A1-001-x-thumb.webp 240w, /uploads/cards/A1-001-x-full.webp 480w",
      full: "/uploads/cards/A1-001-x-full.webp",
    });
    expect(cardArt(face, "https://cdn.example/cards/")).toEqual({
      src: "https://cdn.example/cards/cPK_10_000010_00_FUSHIGIDANE_C.webp",
      full: "https://cdn.example/cards/cPK_10_000010_00_FUSHIGIDANE_C.webp",
    });
    expect(cardArt(face, null)).toBeNull();
    expect(cardArt({ ...face, imageFile: null }, "https://cdn.example")).toBeNull();
  });
});

describe("card face labels", () => {
  it("reads the catalogue's element spellings and the ex marker", () => {
    expect(elementOf({ element: "Grass" })).toBe("grass");
    expect(elementOf({ element: "dark" })).toBe("darkness");
    expect(elementOf({ element: null })).toBe("unknown");
    expect(elementOf({ element: "colorless" })).toBe("colorless");
    expect(isExCard({ name: "ピカチュウex", nameEn: "Pikachu ex" })).toBe(true);
    expect(isExCard({ name: "エクセル", nameEn: "Exeggcute" })).toBe(false);
    expect(trainerMessage("supporter")).toBe("trainerSupporter");
    expect(trainerMessage(null)).toBe("trainerGeneric");
  });
});
