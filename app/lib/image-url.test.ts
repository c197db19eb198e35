import { describe, expect, it } from "vitest";
import { isImageUrl } from "./image-url";

describe("isImageUrl", () => {
  it("takes our own paths and absolute http(s) URLs", () => {
    for (const url of ["/uploads/eyecatches/1-a.webp", "https://img.example/a.png", "http://img.example/a%20b.png"]) expect(isImageUrl(url), url).toBe(true);
  });

  it("refuses what a browser could read as another host, other schemes and attribute breakers", () => {
    for (const url of ["/\\evil.example/x.png", "//evil.example/x.png", "\\\\evil.example/x.png", "/a\\b.png", "javascript:alert(1)", "data:image/png;base64,AAAA", "https://a.example/x.png\" onerror=\"x", "/a b.png", "x.png", ""]) {
      expect(isImageUrl(url), url).toBe(false);
    }
  });
});
