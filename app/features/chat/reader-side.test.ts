import { describe, expect, it } from "vitest";
import { readerSide, sidesForReader } from "./reader-side";

describe("readerSide", () => {
  it("the owner gives the offer's 譲 cards and receives its 求 cards", () => {
    expect(readerSide("give", "owner")).toBe("youGive");
    expect(readerSide("want", "owner")).toBe("youReceive");
    expect(sidesForReader("owner")).toEqual(["give", "want"]);
  });
  it("the partner receives the offer's 譲 cards and gives its 求 cards", () => {
    expect(readerSide("give", "partner")).toBe("youReceive");
    expect(readerSide("want", "partner")).toBe("youGive");
    expect(sidesForReader("partner")).toEqual(["want", "give"]);
  });
});
