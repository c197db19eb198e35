import { describe, expect, it } from "vitest";
import { isSafeText, safeString } from "./text";

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
