import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "./sql.server";

describe("isUniqueViolation", () => {
  it("finds PostgreSQL's 23505 however deep the drivers wrapped it, and nothing else", () => {
    const pg = Object.assign(new Error("duplicate key"), { code: "23505" });
    expect(isUniqueViolation(pg)).toBe(true);
    expect(isUniqueViolation(new Error("Failed query", { cause: new Error("wrapped", { cause: pg }) }))).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error("not null"), { code: "23502" }))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
