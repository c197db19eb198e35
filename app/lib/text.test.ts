import { describe, expect, it } from "vitest";
import { isPlainLine, isSafeText, safeString } from "./text";

describe("safeString", () => {
  it("refuses NUL and lone surrogates, keeps other text (emoji included)", () => {
    expect(isSafeText("ピカチュウ👑")).toBe(true);
    expect(isSafeText("a\u0000b")).toBe(false);
    expect(isSafeText("a\ud800")).toBe(false);
    expect(isSafeText("\udc00a")).toBe(false);
    const schema = safeString("unknownCard").trim().min(1);
    expect(schema.safeParse("A1-001").data).toBe("A1-001");
    expect(schema.safeParse("A1\u0000").error?.issues[0]?.message).toBe("unknownCard");
  });
});

describe("isPlainLine", () => {
  it("refuses what isSafeText refuses and every control character, keeps other text", () => {
    expect(isPlainLine("新パックはトレード対象外（公式のお知らせ） 👑")).toBe(true);
    for (const value of ["a\u0000b", "a\ud800", "a\nb", "a\tb", "a\u001bb", "a\u007fb", "a\u0085b"]) expect(isPlainLine(value), JSON.stringify(value)).toBe(false);
  });
});
