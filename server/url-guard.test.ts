import { describe, expect, it } from "vitest";
import { isReadableUrlPart } from "./url-guard";

describe("isReadableUrlPart", () => {
  it("refuses NUL bytes and escapes that are not UTF-8", () => {
    expect(isReadableUrlPart("/cards/%00")).toBe(false);
    expect(isReadableUrlPart("/api/cards/a%00b/x")).toBe(false);
    expect(isReadableUrlPart("give=%00", true)).toBe(false);
    expect(isReadableUrlPart("q=%FF", true)).toBe(false);
    expect(isReadableUrlPart("q=%C3%28", true)).toBe(false);
    expect(isReadableUrlPart("/cards/%E0%A4")).toBe(false);
    expect(isReadableUrlPart("/bad%zz")).toBe(false);
  });

  it("takes ordinary paths and queries, Japanese included", () => {
    expect(isReadableUrlPart("/cards/A1-001")).toBe(true);
    expect(isReadableUrlPart(`q=${encodeURIComponent("ピカチュウ ex")}`, true)).toBe(true);
    expect(isReadableUrlPart("rarity=%E2%97%86%E2%97%86", true)).toBe(true);
    expect(isReadableUrlPart("q=a+b", true)).toBe(true);
  });
});
