// Text edits of the content editor's toolbar, as pure functions over (text, selection): each
// returns the new text and where the selection goes, so the textarea stays a plain textarea (IME
// input keeps working) and the edits are tested without a browser. The syntax is the formatter's
// (docs/content-format.md).

export type TextEdit = { text: string; selectionStart: number; selectionEnd: number };

/** `**` + selection + `**` (or the placeholder, selected, when nothing is selected). */
export function wrapSelection(text: string, start: number, end: number, before: string, after: string, placeholder: string): TextEdit {
  const selected = text.slice(start, end);
  const inner = selected || placeholder;
  const next = text.slice(0, start) + before + inner + after + text.slice(end);
  return { text: next, selectionStart: start + before.length, selectionEnd: start + before.length + inner.length };
}

/** The start of the line holding `position`. */
function lineStart(text: string, position: number): number {
  return text.lastIndexOf("\n", position - 1) + 1;
}

/** The end of the line holding `position` (before its newline). */
function lineEnd(text: string, position: number): number {
  const at = text.indexOf("\n", position);
  return at < 0 ? text.length : at;
}

/**
 * Puts `prefix` before every line the selection touches (headings `## `, list items `- `); a
 * line that already starts with a heading or list marker has it replaced, not doubled.
 */
export function prefixLines(text: string, start: number, end: number, prefix: string): TextEdit {
  const from = lineStart(text, start);
  const to = lineEnd(text, Math.max(start, end - (end > start && text[end - 1] === "\n" ? 1 : 0)));
  const lines = text.slice(from, to).split("\n");
  const marker = /^(?:#{1,6}\s+|[-*+]\s+|\d+\.\s+)/;
  const changed = lines.map((line) => prefix + line.replace(marker, "")).join("\n");
  const next = text.slice(0, from) + changed + text.slice(to);
  if (lines.length === 1) {
    const caret = from + changed.length;
    return { text: next, selectionStart: caret, selectionEnd: caret };
  }
  return { text: next, selectionStart: from, selectionEnd: from + changed.length };
}

/** A fenced code block around the selected lines, or inline code within one line. */
export function insertCode(text: string, start: number, end: number, placeholder: string): TextEdit {
  const selected = text.slice(start, end);
  if (!selected.includes("\n")) return wrapSelection(text, start, end, "`", "`", placeholder);
  return insertBlock(text, start, end, "```\n" + selected.replace(/\n$/, "") + "\n```");
}

/**
 * `block` on lines of its own at the selection (replacing it): a newline is added before it when
 * the cursor is inside a line and after it when text follows, because the formatter's blocks are
 * whole lines. The cursor ends after the block.
 */
export function insertBlock(text: string, start: number, end: number, block: string): TextEdit {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const trail = after.startsWith("\n") ? "" : "\n";
  const next = before + lead + block + trail + after;
  const caret = before.length + lead.length + block.length + trail.length;
  return { text: next, selectionStart: caret, selectionEnd: caret };
}

/** Inline text at the selection (a link, an image), the cursor after it. */
export function insertInline(text: string, start: number, end: number, inline: string): TextEdit {
  const next = text.slice(0, start) + inline + text.slice(end);
  const caret = start + inline.length;
  return { text: next, selectionStart: caret, selectionEnd: caret };
}

/** Characters that would end a markdown link text or URL early are escaped. */
export function markdownLink(label: string, url: string): string {
  const text = label.replace(/([\\[\]])/g, "\\$1").replace(/\n+/g, " ");
  const href = url.trim().replace(/[()\s<>]/g, (ch) => encodeURIComponent(ch));
  return `[${text}](${href})`;
}

export function markdownImage(alt: string, url: string): string {
  return "!" + markdownLink(alt, url);
}

/**
 * What the hyperlink dialog accepts: an http(s) URL, a mail address link, or a path on this site.
 * Anything else (javascript:, data:, text) is refused before it reaches the text — the formatter
 * would drop it anyway.
 */
export function normaliseLinkUrl(value: string): string | null {
  const url = value.trim();
  if (!url) return null;
  if (/^\/(?!\/)\S*$/.test(url)) return url;
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(url)) return url;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : /^[^\s/]+\.[^\s/]+/.test(url) ? `https://${url}` : null;
  if (!candidate) return null;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? candidate : null;
  } catch {
    return null;
  }
}
