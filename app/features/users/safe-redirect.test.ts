import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps a same-site path with its query", () => {
    expect(safeRedirect("/profile")).toBe("/profile");
    expect(safeRedirect("/trades?rarity=%E2%98%86&page=2")).toBe("/trades?rarity=%E2%98%86&page=2");
  });

  it("refuses anything that could leave the site", () => {
    for (const to of ["https://evil.example/", "//evil.example", "/\\evil.example", "\\\\evil", "javascript:alert(1)", "evil", "/\t/evil.example", "", null, undefined]) {
      expect(safeRedirect(to)).toBe("/");
    }
    expect(safeRedirect("//evil.example", "/profile")).toBe("/profile");
  });
});
