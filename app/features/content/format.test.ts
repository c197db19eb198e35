import { describe, expect, it } from "vitest";
import { contentRefIds, formatContent, sanitizeContentHtml } from "./format";

// This card names no type, so its frame is the neutral "unknown" one (never 無色 by default).
const card = { id: "A1-001", name: "フシギダネ", rarity: "◆", imageUrl: "https://cdn.example.com/a1-001.webp" };

describe("formatContent: docs/product-rules.md §9 syntax", () => {
  it("renders headings 1-3, bold, italic, links, images and fenced code", () => {
    const html = formatContent(
      "# 見出し1\n## 見出し2\n### 見出し3\n#### 見出し4\n\n**太字** と *斜体*\n\n[公式](https://example.com/)\n\n![画像](https://example.com/a.png)\n\n```ts\nconst a = 1 < 2;\n```",
    );
    expect(html).toContain("<h1>見出し1</h1>");
    expect(html).toContain("<h2>見出し2</h2>");
    expect(html).toContain("<h3>見出し3</h3>");
    expect(html).toContain("<h3>見出し4</h3>");
    expect(html).toContain("<strong>太字</strong>");
    expect(html).toContain("<em>斜体</em>");
    expect(html).toContain('<a href="https://example.com/" target="_blank" rel="noopener noreferrer">公式</a>');
    expect(html).toContain('<img src="https://example.com/a.png" alt="画像" loading="lazy" decoding="async" />');
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
  });

  it("turns newlines into line breaks", () => {
    expect(formatContent("一行目\n二行目")).toBe("<p>一行目<br />\n二行目</p>\n");
  });

  it("links only the URL when Japanese text touches it on either side", () => {
    expect(formatContent("詳しくはhttps://example.com/news/1を参照")).toBe(
      '<p>詳しくは<a href="https://example.com/news/1" target="_blank" rel="noopener noreferrer">https://example.com/news/1</a>を参照</p>\n',
    );
  });

  it("ends a URL at a full-width space or full-width punctuation", () => {
    const html = formatContent("リンク https://example.com/a　続き、（https://example.com/b）。https://example.com/c、次");
    expect(html).toContain('href="https://example.com/a"');
    expect(html).toContain('href="https://example.com/b"');
    expect(html).toContain('href="https://example.com/c"');
    expect(html).toContain("</a>　続き、（");
    expect(html).toContain("</a>）。");
    expect(html).toContain("</a>、次");
  });

  it("renders bold right before Japanese text, also around Japanese brackets", () => {
    expect(formatContent("**太字**の直後")).toBe("<p><strong>太字</strong>の直後</p>\n");
    expect(formatContent("**「太字」**の直後")).toBe("<p><strong>「太字」</strong>の直後</p>\n");
  });

  it("renders a card block with its picture, name, rarity and a link to the card page", () => {
    const html = formatContent("本文\n[[card:A1-001]]\n続き", { cards: new Map([[card.id, card]]) });
    expect(html).toContain('<aside class="content-card" aria-label="カード: フシギダネ">');
    expect(html).toContain('<a class="content-card-link" href="/cards/A1-001" target="_blank" rel="noopener noreferrer">');
    expect(html).toContain(
      '<img class="content-card-image content-card-type-unknown" src="https://cdn.example.com/a1-001.webp" alt="フシギダネ" width="240" height="335" loading="lazy" decoding="async" />',
    );
    expect(html).toContain('<span class="content-card-rarity">◆</span>');
    // The block interrupts the paragraph; text before and after stays text.
    expect(html).toMatch(/^<p>本文<\/p>\n<aside/);
    expect(html).toContain("<p>続き</p>");
  });

  it("accepts the block typed full-width by a Japanese input method", () => {
    const html = formatContent("［［card：A1-001］］", { cards: new Map([[card.id, card]]) });
    expect(html).toContain('href="/cards/A1-001"');
  });

  it("shows a placeholder for an unknown card and for a card without a picture", () => {
    expect(formatContent("[[card:ZZ-999]]")).toContain("カードが見つかりません（ZZ-999）");
    const html = formatContent("[[card:A1-001]]", { cards: new Map([[card.id, { ...card, imageUrl: "" }]]) });
    expect(html).toContain('<span class="content-card-placeholder content-card-type-unknown" aria-hidden="true"></span>');
    // The placeholder's frame takes the card's type as the card component does; trainers are trainers.
    const grass = formatContent("[[card:A1-001]]", { cards: new Map([[card.id, { ...card, imageUrl: "", element: "Grass" }]]) });
    expect(grass).toContain('<span class="content-card-placeholder content-card-type-grass" aria-hidden="true"></span>');
    const trainer = formatContent("[[card:A1-001]]", { cards: new Map([[card.id, { ...card, imageUrl: "", trainer: true }]]) });
    expect(trainer).toContain('<span class="content-card-placeholder content-card-type-trainer" aria-hidden="true"></span>');
  });

  it("renders related article and deck blocks with thumbnail, date and title", () => {
    const related = { href: "/articles/new-pack", title: "新パック<速報>", date: "2025-01-31T16:00:00.000Z", thumbnailUrl: "/uploads/images/1-a.webp" };
    const html = formatContent("[[article:new-pack]]\n[[deck:pikachu-ex]]", { articles: new Map([["new-pack", related]]) });
    expect(html).toContain('<a class="content-related-link" href="/articles/new-pack"');
    expect(html).toContain('<time class="content-related-date" datetime="2025-01-31T16:00:00.000Z">2025/02/01</time>');
    expect(html).toContain("新パック&lt;速報&gt;");
    expect(html).toContain("デッキレシピが見つかりません");
  });

  it("leaves a block inside a code block alone", () => {
    expect(formatContent("```\n[[card:A1-001]]\n```")).toBe("<pre><code>[[card:A1-001]]\n</code></pre>\n");
  });

  it("gives hosted images their known size", () => {
    const html = formatContent("![図](/uploads/images/1-a.webp)", { images: new Map([["/uploads/images/1-a.webp", { width: 800, height: 600 }]]) });
    expect(html).toContain('<img src="/uploads/images/1-a.webp" alt="図" width="800" height="600" loading="lazy" decoding="async" />');
  });
});

describe("contentRefIds", () => {
  it("lists each card, article, deck and image once", () => {
    expect(contentRefIds("[[card:A1-001]]\n[[card:A1-001]]\n[[article:x]]\n[[deck:y]]\n![a](/uploads/images/1.webp) ![b](https://e.com/b.png)")).toEqual({
      cards: ["A1-001"],
      articles: ["x"],
      decks: ["y"],
      images: ["/uploads/images/1.webp", "https://e.com/b.png"],
    });
  });
});

// What an attacker would type into an editor, or slip into stored HTML. Nothing executable
// may come out: no script or style element, no on* attribute, no javascript:/vbscript:/data: URL.
const XSS_CORPUS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x](java&#x09;script:alert(1))",
  "[x](vbscript:msgbox(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![x](javascript:alert(1))",
  "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  "![x](data:image/png;base64,iVBORw0KGgo=)",
  '<svg onload="alert(1)"><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<iframe src="https://evil.example/"></iframe>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  "<div><p onclick=alert(1)>nested <b onmouseover=alert(1)>broken",
  '<a href="https://ok.example/" onclick="alert(1)">x</a>',
  "<<script>script>alert(1)<</script>/script>",
  '<img src="x" style="background:url(javascript:alert(1))">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<object data="javascript:alert(1)"></object>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '[[card:"><script>alert(1)</script>]]',
  "[x](//evil.example/path)",
  '<a href="\u0001javascript:alert(1)">x</a>',
];

/** The real tags of `html` (text `<` is always escaped as &lt;, so every `<` left opens a tag). */
function tagsOf(html: string): { name: string; attributes: string }[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)].map((m) => ({ name: m[1].toLowerCase(), attributes: m[2] }));
}

const ALLOWED_TAGS = new Set(["p", "br", "h1", "h2", "h3", "strong", "em", "s", "a", "img", "pre", "code", "blockquote", "hr", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "aside", "span", "time"]);

function assertInert(html: string) {
  for (const tag of tagsOf(html)) {
    expect(ALLOWED_TAGS.has(tag.name), `<${tag.name}> in ${html}`).toBe(true);
    expect(tag.attributes).not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag.attributes).not.toMatch(/\sstyle\s*=/i);
    expect(tag.attributes).not.toMatch(/\s(href|src)\s*=\s*"\s*(javascript|vbscript|data):/i);
    expect(tag.attributes).not.toMatch(/\s(href|src)\s*=\s*"\/\//i);
    if (tag.name === "a" && tag.attributes.trim()) expect(tag.attributes).toContain('rel="noopener noreferrer"');
  }
}

describe("XSS corpus", () => {
  it.each(XSS_CORPUS)("formatContent(%j) is inert", (source) => {
    assertInert(formatContent(source));
  });

  it.each(XSS_CORPUS)("sanitizeContentHtml(%j) is inert (stored HTML is cleaned again when served)", (html) => {
    assertInert(sanitizeContentHtml(html));
  });

  it("shows typed HTML as text rather than dropping it", () => {
    expect(formatContent("<b>x</b>")).toBe("<p>&lt;b&gt;x&lt;/b&gt;</p>\n");
  });

  it("keeps the formatter's own output unchanged through a second sanitising", () => {
    const html = formatContent("# t\n[[card:A1-001]]\n[[article:a]]\n[x](https://e.com)", {
      cards: new Map([[card.id, card]]),
      articles: new Map([["a", { href: "/articles/a", title: "a", date: "2025-01-01T00:00:00Z", thumbnailUrl: null }]]),
    });
    expect(sanitizeContentHtml(html)).toBe(html);
  });
});
