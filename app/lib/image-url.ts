/**
 * The one rule for an image URL typed into any field (article thumbnail, deck eyecatch, the site's
 * OG image): an absolute http(s) URL, or a path on this site (an upload). Nothing a browser could
 * read as another host ("//x", "/\x") and no characters that could leave an attribute.
 */
export function isImageUrl(value: string): boolean {
  if (/^\/(?![/\\])[^\s"'<>\\]*$/.test(value)) return true;
  if (/[\s"'<>\\]/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
