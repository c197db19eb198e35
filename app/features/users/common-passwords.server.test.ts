import { describe, expect, it } from "vitest";
import { commonPasswordCount, isCommonPassword } from "./common-passwords.server";

describe("isCommonPassword", () => {
  it("knows at least the 10,000 most common passwords, without case", () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    for (const p of ["password", "12345678", "qwertyuiop", "Password", "ILOVEYOU", "baseball"]) expect(isCommonPassword(p), p).toBe(true);
    for (const p of ["とれぽけ-kouKan-2026", "chat-password-1", "correct horse pikachu"]) expect(isCommonPassword(p), p).toBe(false);
  });
});
