import { describe, expect, it } from "vitest";
import { formatFriendId, normalizeFriendId } from "./friend-id";

describe("normalizeFriendId", () => {
  it("accepts full-width digits, spaces and hyphens of every width", () => {
    expect(normalizeFriendId("１２３４－５６７８－９０１２－３４５６")).toBe("1234567890123456");
    expect(normalizeFriendId("1234 5678 9012 3456")).toBe("1234567890123456");
    expect(normalizeFriendId("1234　5678　9012　3456")).toBe("1234567890123456");
    expect(normalizeFriendId(" 1234-5678-9012-3456 ")).toBe("1234567890123456");
    expect(normalizeFriendId("1234ー5678ー9012ー3456")).toBe("1234567890123456");
  });

  it("refuses anything that is not exactly 16 digits", () => {
    for (const raw of ["123456789012345", "12345678901234567", "1234-5678-9012-345a", "", "<b>1234567890123456</b>", "1234567890123456\u0000"]) {
      expect(normalizeFriendId(raw)).toBeNull();
    }
  });

  it("shows it grouped 4-4-4-4", () => {
    expect(formatFriendId("1234567890123456")).toBe("1234-5678-9012-3456");
  });
});

