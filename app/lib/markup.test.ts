import { describe, expect, it } from "vitest";
import { escapeMarkup, escapeXml } from "./markup";

describe("the markup escaper", () => {
  it("escapes the five characters for HTML and XML alike", () => {
    expect(escapeMarkup(`<a href="x">Tom & Jerry's</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  });

  it("drops what XML 1.0 does not allow", () => {
    expect(escapeXml("a\u0000b\u000bc\ufffe & d")).toBe("abc &amp; d");
  });
});
