import { describe, expect, it } from "vitest";
import { insertBlock, insertCode, insertInline, markdownImage, markdownLink, normaliseLinkUrl, prefixLines, wrapSelection } from "./editing";
import { formatContent } from "./format";

describe("toolbar edits", () => {
  it("wraps the selection, or inserts a selected placeholder", () => {
    expect(wrapSelection("あいうえお", 1, 3, "**", "**", "太字")).toEqual({ text: "あ**いう**えお", selectionStart: 3, selectionEnd: 5 });
    expect(wrapSelection("あい", 2, 2, "*", "*", "斜体")).toEqual({ text: "あい*斜体*", selectionStart: 3, selectionEnd: 5 });
  });

  it("prefixes every touched line and replaces an existing marker", () => {
    expect(prefixLines("見出し\n本文", 1, 1, "## ").text).toBe("## 見出し\n本文");
    expect(prefixLines("# 見出し", 0, 0, "### ").text).toBe("### 見出し");
    const list = prefixLines("一\n二\n三", 0, 5, "- ");
    expect(list.text).toBe("- 一\n- 二\n- 三");
    expect(formatContent(list.text)).toContain("<li>二</li>");
  });

  it("makes inline code in a line and a fenced block over lines", () => {
    expect(insertCode("a b", 2, 3, "コード").text).toBe("a `b`");
    expect(insertCode("x\nconst a;\nlet b;\ny", 2, 17, "").text).toBe("x\n```\nconst a;\nlet b;\n```\ny");
  });

  it("puts a block on a line of its own wherever the cursor is", () => {
    expect(insertBlock("前の文後の文", 3, 3, "[[card:A1-001]]")).toEqual({ text: "前の文\n[[card:A1-001]]\n後の文", selectionStart: 20, selectionEnd: 20 });
    expect(insertBlock("", 0, 0, "[[article:a]]").text).toBe("[[article:a]]\n");
    expect(insertBlock("行\n", 2, 2, "[[deck:d]]").text).toBe("行\n[[deck:d]]\n");
    const html = formatContent(insertBlock("前の文後の文", 3, 3, "[[card:A1-001]]").text);
    expect(html).toContain("<p>前の文</p>");
    expect(html).toContain("content-card");
  });

  it("inserts links and images the formatter reads back", () => {
    const link = markdownLink("公式[サイト]", "https://example.com/a b");
    expect(insertInline("→", 1, 1, link).text).toBe("→[公式\\[サイト\\]](https://example.com/a%20b)");
    expect(formatContent(link)).toContain('<a href="https://example.com/a%20b" target="_blank" rel="noopener noreferrer">公式[サイト]</a>');
    expect(formatContent(markdownImage("図", "/uploads/images/1-a.webp"))).toContain('<img src="/uploads/images/1-a.webp" alt="図"');
  });
});

describe("normaliseLinkUrl", () => {
  it("accepts http(s), site paths and mail links, and adds https to a bare host", () => {
    expect(normaliseLinkUrl(" https://example.com/x ")).toBe("https://example.com/x");
    expect(normaliseLinkUrl("/cards/A1-001")).toBe("/cards/A1-001");
    expect(normaliseLinkUrl("example.com/news")).toBe("https://example.com/news");
    expect(normaliseLinkUrl("mailto:info@example.com")).toBe("mailto:info@example.com");
  });

  it("refuses blank, script and data URLs, protocol-relative URLs and plain words", () => {
    for (const bad of ["", "   ", "javascript:alert(1)", "data:text/html,x", "//evil.example/", "ただの文字", "vbscript:x"]) {
      expect(normaliseLinkUrl(bad), bad).toBeNull();
    }
  });
});
