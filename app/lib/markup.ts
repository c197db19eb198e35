/**
 * The one escaper for text put into HTML or XML (pages built as strings, mail, the sitemap and
 * the feed): & < > " and ' become entities that both languages read (&#39; rather than XML's
 * &apos;, which old HTML does not know).
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** Text for an XML document: characters XML 1.0 does not allow are dropped, then it is escaped. */
export function escapeXml(text: string): string {
  return escapeMarkup(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ""));
}
