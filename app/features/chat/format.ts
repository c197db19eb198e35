export type BodySegment = { kind: "text"; text: string } | { kind: "link"; href: string; text: string };

// http(s) only; a URL ends at whitespace (including the ideographic space) or at characters
// that never belong to one in a chat line.
const URL_PATTERN = /https?:\/\/[^\s\u3000<>"'「」『』（）、。]+/g;
// Punctuation that usually closes the sentence rather than the URL.
const TRAILING = /[.,!?:;)\]}！？]+$/;

/** Splits a plain-text message into text and link segments; nothing is ever treated as HTML. */
export function splitLinks(body: string): BodySegment[] {
  const segments: BodySegment[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_PATTERN)) {
    let url = match[0];
    const trailing = TRAILING.exec(url)?.[0] ?? "";
    url = url.slice(0, url.length - trailing.length);
    const start = match.index;
    if (start > last) segments.push({ kind: "text", text: body.slice(last, start) });
    let valid = false;
    try {
      valid = ["http:", "https:"].includes(new URL(url).protocol);
    } catch {
      valid = false;
    }
    segments.push(valid ? { kind: "link", href: url, text: url } : { kind: "text", text: url });
    last = start + url.length;
  }
  if (last < body.length) segments.push({ kind: "text", text: body.slice(last) });
  return segments;
}
