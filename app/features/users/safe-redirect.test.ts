import { describe, expect, it } from "vitest";
import { OFF_SITE_REDIRECTS, safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps a same-site path with its query", () => {
    expect(safeRedirect("/profile")).toBe("/profile");
    expect(safeRedirect("/trades?rarity=%E2%98%86&page=2")).toBe("/trades?rarity=%E2%98%86&page=2");
    expect(safeRedirect("/articles/../decks")).toBe("/decks");
    expect(safeRedirect("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it("refuses anything that could leave the site", () => {
    for (const to of ["https://evil.example/", "//evil.example", "/\\evil.example", "\\\\evil", "javascript:alert(1)", "evil", "/\t/evil.example", "", null, undefined]) {
      expect(safeRedirect(to)).toBe("/");
    }
    expect(safeRedirect("//evil.example", "/profile")).toBe("/profile");
  });

  it.each(OFF_SITE_REDIRECTS)("never yields a path a browser reads as another origin: %j", (to) => {
    const target = safeRedirect(to, "/fallback");
    expect(target).toBe("/fallback");
  });

  it("answers only paths that resolve to this origin, whatever the input", () => {
    for (const to of OFF_SITE_REDIRECTS) {
      const target = safeRedirect(to);
      expect(new URL(target, "https://torepoke.example").origin).toBe("https://torepoke.example");
      expect(target.startsWith("//") || target.startsWith("/\\")).toBe(false);
    }
  });
});
