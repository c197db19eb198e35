// Card blocks ([[card:…]]) inside formatted HTML, so a page can draw them with the card face
// component every other list uses. The formatter writes each found card as one
// <aside class="content-card"> whose link names the card (blocks.ts); that markup is kept in the
// stored HTML (feeds and a page without the card data still show it) and replaced on the page.

const CARD_BLOCK = /<aside class="content-card"[^>]*>\s*<a class="content-card-link" href="\/cards\/([^"?#]+)"[\s\S]*?<\/aside>\n?/g;

/** The cards of the HTML's card blocks, in document order (a card may appear twice). */
export function cardBlockIds(html: string): string[] {
  return [...html.matchAll(CARD_BLOCK)].map((match) => decodeCardId(match[1]));
}

/**
 * The HTML cut at each card block of a card in `shown`: `parts` has one more entry than `cardIds`,
 * and part i comes before card i. A block of a card not shown stays in its part as written.
 */
export function splitCardBlocks(html: string, shown: (cardId: string) => boolean): { parts: string[]; cardIds: string[] } {
  const parts: string[] = [];
  const cardIds: string[] = [];
  let from = 0;
  for (const match of html.matchAll(CARD_BLOCK)) {
    const cardId = decodeCardId(match[1]);
    if (!shown(cardId)) continue;
    parts.push(html.slice(from, match.index));
    cardIds.push(cardId);
    from = match.index + match[0].length;
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
