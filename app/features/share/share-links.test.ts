import { describe, expect, it } from "vitest";
import { shareLinks } from "./share-links";

describe("shareLinks", () => {
  it("builds X and LINE intent links for the page's absolute address", () => {
    const links = shareLinks("https://torepoke.example", "/trades/abc", "トレード募集 ゼニガメ");
    expect(links.url).toBe("https://torepoke.example/trades/abc");
    const x = new URL(links.x);
    expect(x.origin + x.pathname).toBe("https://x.com/intent/tweet");
    expect(x.searchParams.get("text")).toBe("トレード募集 ゼニガメ");
    expect(x.searchParams.get("url")).toBe("https://torepoke.example/trades/abc");
    const line = new URL(links.line);
    expect(line.origin + line.pathname).toBe("https://social-plugins.line.me/lineit/share");
    expect(line.searchParams.get("url")).toBe("https://torepoke.example/trades/abc");
  });

  it("encodes what would break the query and ignores a trailing slash on the site", () => {
    const links = shareLinks("http://localhost:3000/", "/articles/a&b?c=1#x", "A & B #tag");
    expect(links.url).toBe("http://localhost:3000/articles/a&b?c=1#x");
    expect(links.x).toContain("text=A+%26+B+%23tag");
    expect(new URL(links.x).searchParams.get("url")).toBe("http://localhost:3000/articles/a&b?c=1#x");
    expect(new URL(links.line).searchParams.get("url")).toBe("http://localhost:3000/articles/a&b?c=1#x");
  });

  it("resolves a path without a leading slash from the site root", () => {
    expect(shareLinks("https://torepoke.example", "decks/x", "d").url).toBe("https://torepoke.example/decks/x");
  });
});
