// Card blocks ([[card:…]]) inside formatted HTML, so a page can draw them with the card face
// component every other list uses. The formatter writes each found card as one
// <aside class="content-card"> whose link names the card (blocks.ts); that markup is kept in the
// stored HTML (feeds and a page without the card data still show it) and replaced on the page.

const CARD_BLOCK = /<aside class="content-card"[^>]*>\s*<a class="content-card-link" href="\/cards\/([^"?#]+)"[\s\S]*?<\/aside>\n?/g;

/** At most this many card blocks of one text are drawn as card faces (the rest stay as written). */
export const MAX_CARD_BLOCKS = 200;

const TAG = /<(\/?)([a-zA-Z][\w-]*)\b[^>]*?(\/?)>/g;
const VOID = new Set(["area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/**
 * The card blocks that stand on their own in the HTML (not inside a list, a quote or a table:
 * cutting there would break the element around them), the first MAX_CARD_BLOCKS of them, in
 * document order. The HTML is the formatter's sanitized output, so its tags balance.
 */
function topLevelBlocks(html: string): { index: number; length: number; cardId: string }[] {
  const found: { index: number; length: number; cardId: string }[] = [];
  let depth = 0;
  let scanned = 0;
  const depthAt = (end: number) => {
    TAG.lastIndex = scanned;
    for (let tag = TAG.exec(html); tag && tag.index < end; tag = TAG.exec(html)) {
      const name = tag[2].toLowerCase();
      if (tag[3] || VOID.has(name)) continue;
      depth += tag[1] ? -1 : 1;
    }
    scanned = end;
    return depth;
  };
  for (const match of html.matchAll(CARD_BLOCK)) {
    if (found.length >= MAX_CARD_BLOCKS) break;
    const atTop = depthAt(match.index) === 0;
    scanned = match.index + match[0].length;
    if (atTop) found.push({ index: match.index, length: match[0].length, cardId: decodeCardId(match[1]) });
  }
  return found;
}

/** The cards of the HTML's card blocks drawn as faces, in document order (a card may appear twice). */
export function cardBlockIds(html: string): string[] {
  return topLevelBlocks(html).map((block) => block.cardId);
}

/**
 * The HTML cut at each card block of a card in `shown`: `parts` has one more entry than `cardIds`,
 * and part i comes before card i. A block of a card not shown stays in its part as written.
 */
export function splitCardBlocks(html: string, shown: (cardId: string) => boolean): { parts: string[]; cardIds: string[] } {
  const parts: string[] = [];
  const cardIds: string[] = [];
  let from = 0;
  for (const { index, length, cardId } of topLevelBlocks(html)) {
    if (!shown(cardId)) continue;
    parts.push(html.slice(from, index));
    cardIds.push(cardId);
    from = index + length;
  }
  parts.push(html.slice(from));
  return { parts, cardIds };
}

function decodeCardId(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replaceAll("&amp;", "&"));
  } catch {
    return encoded;
  }
}
