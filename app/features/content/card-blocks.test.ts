import { describe, expect, it } from "vitest";
import { cardBlockIds, MAX_CARD_BLOCKS, splitCardBlocks } from "./card-blocks";
import { formatContent } from "./format";
import type { CardRef } from "./types";

const ref = (id: string, name: string): CardRef => ({ id, name, rarity: "◆", imageUrl: "", element: "grass", trainer: false });
const refs = { cards: new Map([["A1-001", ref("A1-001", "フシギダネ")], ["A1-004", ref("A1-004", "フシギバナex")]]) };

describe("card blocks in formatted HTML", () => {
  it("lists the found cards of a text's blocks in order, not the missing ones", () => {
    const html = formatContent("前\n[[card:A1-004]]\n中\n[[card:A1-999]]\n[[card:A1-001]]\n[[card:A1-004]]", refs);
    expect(cardBlockIds(html)).toEqual(["A1-004", "A1-001", "A1-004"]);
  });

  it("cuts the HTML around each shown card block and keeps everything else", () => {
    const html = formatContent("## 見出し\n[[card:A1-004]]\n本文\n[[card:A1-001]]", refs);
    const { parts, cardIds } = splitCardBlocks(html, (id) => id === "A1-004");
    expect(cardIds).toEqual(["A1-004"]);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toContain("<h2>見出し</h2>");
    expect(parts[0]).not.toContain("content-card");
    // A card the page has no face for stays as the formatter wrote it.
    expect(parts[1]).toContain("<p>本文</p>");
    expect(parts[1]).toContain('href="/cards/A1-001"');
    expect(parts.join("")).not.toContain("A1-004");
  });

  it("gives one part when nothing is shown", () => {
    const html = formatContent("[[card:A1-001]]", refs);
    expect(splitCardBlocks(html, () => false)).toEqual({ parts: [html], cardIds: [] });
    expect(splitCardBlocks(html, () => true)).toEqual({ parts: ["", ""], cardIds: ["A1-001"] });
  });

  it("leaves a block inside a list or a quote as written, so the list or quote stays whole", () => {
    const html = formatContent("1. one\n2. [[card:A1-001]]\n3. three\n\n> [[card:A1-004]] 引用\n\n[[card:A1-004]]", refs);
    expect(html).toContain("<li>");
    const { parts, cardIds } = splitCardBlocks(html, () => true);
    expect(cardIds).toEqual(["A1-004"]);
    expect(cardBlockIds(html)).toEqual(["A1-004"]);
    // The list and the quote are whole in the first part, their blocks as the formatter wrote them.
    expect(parts[0].match(/<ol/g)?.length).toBe(parts[0].match(/<\/ol>/g)?.length);
    expect(parts[0].match(/<blockquote/g)?.length).toBe(parts[0].match(/<\/blockquote>/g)?.length);
    expect(parts[0]).toContain("three");
    expect(parts[0]).toContain('href="/cards/A1-001"');
  });

  it("draws at most MAX_CARD_BLOCKS blocks, the same ones the page's card list names, and keeps the rest of the text", () => {
    const source = Array.from({ length: MAX_CARD_BLOCKS + 5 }, (_, i) => `[[card:${i % 2 ? "A1-001" : "A1-004"}]]`).join("\n") + "\n最後の段落";
    const html = formatContent(source, refs);
    const ids = cardBlockIds(html);
    expect(ids).toHaveLength(MAX_CARD_BLOCKS);
    const { parts, cardIds } = splitCardBlocks(html, () => true);
    expect(cardIds).toEqual(ids);
    expect(parts).toHaveLength(MAX_CARD_BLOCKS + 1);
    expect(parts.at(-1)).toContain("最後の段落");
  });

  it("decodes an encoded id", () => {
    expect(cardBlockIds('<aside class="content-card" aria-label="x"><a class="content-card-link" href="/cards/PROMO-A%2D001">x</a></aside>')).toEqual(["PROMO-A-001"]);
  });
});
