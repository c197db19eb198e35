// The formatter's two custom blocks (docs/content-format.md). A block is one line of its own:
//
//   [[card:A1-001]]          a card of the card database
//   [[article:<slug or id>]] a related article
//   [[deck:<slug or id>]]    a related deck recipe
//
// Plain ASCII brackets survive typing, pasting and editing in a textarea, show what they are in
// the raw text, and need no hidden state. A Japanese input method may type them full-width
// (［［card：A1-001］］): the line is NFKC-normalised before matching, so that works too.
import { escapeMarkup } from "#app/lib/markup.ts";
import type { StateBlock, Token } from "markdown-it";
import { ART_SIZES, elementOf } from "#app/lib/card-face.ts";

import type { CardRef, ContentBlockKind, ContentRefs, RelatedRef } from "./types";
import { tokyoDate } from "#app/lib/tokyo-time.ts";

export type { CardRef, ContentBlockKind, ContentRefs, RelatedRef } from "./types";

const escapeHtml = escapeMarkup;

export const MAX_REF_LENGTH = 100;
const BLOCK_LINE = new RegExp(`^\\[\\[(card|article|deck):\\s*([A-Za-z0-9][A-Za-z0-9_.\\-]{0,${MAX_REF_LENGTH - 1}})\\s*\\]\\]$`);

/** The block syntax of one line, or null. */
export function parseBlockLine(line: string): { kind: ContentBlockKind; ref: string } | null {
  const match = BLOCK_LINE.exec(line.normalize("NFKC").trim());
  return match ? { kind: match[1] as ContentBlockKind, ref: match[2] } : null;
}

/** markdown-it block rule: a block line becomes one `content_block` token. */
export function contentBlockRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  // Indented by four or more spaces, it is code.
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const line = state.src.slice(state.bMarks[startLine] + state.tShift[startLine], state.eMarks[startLine]);
  const block = parseBlockLine(line);
  if (!block) return false;
  if (silent) return true;
  const token = state.push("content_block", "", 0);
  token.meta = block;
  token.map = [startLine, startLine + 1];
  token.block = true;
  state.line = startLine + 1;
  return true;
}

function formatDate(iso: string): string {
  return tokyoDate(iso, "ja");
}

const LABELS = {
  card: "カード",
  cardMissing: "カードが見つかりません",
  article: "関連記事",
  articleMissing: "記事が見つかりません",
  deck: "関連デッキレシピ",
  deckMissing: "デッキレシピが見つかりません",
} as const;

export function renderContentBlock(token: Token, refs: ContentRefs): string {
  const { kind, ref } = token.meta as { kind: ContentBlockKind; ref: string };
  if (kind === "card") return renderCard(ref, refs.cards?.get(ref));
  return renderRelated(kind, refs[kind === "article" ? "articles" : "decks"]?.get(ref));
}

function renderCard(ref: string, card: CardRef | undefined): string {
  if (!card) {
    return `<aside class="content-card content-card-missing"><span class="content-card-placeholder" aria-hidden="true"></span><span class="content-card-name">${escapeHtml(LABELS.cardMissing)}（${escapeHtml(ref)}）</span></aside>\n`;
  }
  const name = escapeHtml(card.name);
  const frame = `content-card-type-${card.trainer ? "trainer" : elementOf({ element: card.element ?? null })}`;
  // Width and height keep the block's place while the art loads; a failed image keeps the frame behind it.
  const picture = card.imageUrl
    ? `<img class="content-card-image ${frame}" src="${escapeHtml(card.imageUrl)}" alt="${name}" width="${ART_SIZES.thumb.width}" height="${ART_SIZES.thumb.height}" loading="lazy" decoding="async">`
    : `<span class="content-card-placeholder ${frame}" aria-hidden="true"></span>`;
  const rarity = card.rarity ? `<span class="content-card-rarity">${escapeHtml(card.rarity)}</span>` : "";
  return (
    `<aside class="content-card" aria-label="${escapeHtml(LABELS.card)}: ${name}">` +
    `<a class="content-card-link" href="/cards/${encodeURIComponent(card.id)}">${picture}` +
    `<span class="content-card-name">${name}</span>${rarity}</a></aside>\n`
  );
}

function renderRelated(kind: "article" | "deck", related: RelatedRef | undefined): string {
  if (!related) {
    return `<aside class="content-related content-related-missing"><span class="content-related-title">${escapeHtml(kind === "article" ? LABELS.articleMissing : LABELS.deckMissing)}</span></aside>\n`;
  }
  const label = escapeHtml(kind === "article" ? LABELS.article : LABELS.deck);
  const title = escapeHtml(related.title);
  const thumbnail = related.thumbnailUrl
    ? `<img class="content-related-thumb" src="${escapeHtml(related.thumbnailUrl)}" alt="" loading="lazy" decoding="async">`
    : `<span class="content-related-thumb content-card-placeholder" aria-hidden="true"></span>`;
  const date = formatDate(related.date);
  return (
    `<aside class="content-related" aria-label="${label}: ${title}">` +
    `<a class="content-related-link" href="${escapeHtml(related.href)}">${thumbnail}<span class="content-related-body">` +
    `<span class="content-related-kind">${label}</span>` +
    (date ? `<time class="content-related-date" datetime="${escapeHtml(related.date)}">${date}</time>` : "") +
    `<span class="content-related-title">${title}</span></span></a></aside>\n`
  );
}
