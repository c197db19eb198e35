/**
 * Where the share buttons go: the plain intent URLs of X and LINE (no script of theirs on our
 * pages). The page's address is absolute (the site's SITE_URL origin and the page's path), so a
 * shared link never carries the reader's own host or query string.
 */
export type ShareLinks = { url: string; x: string; line: string };

export function shareLinks(siteUrl: string, path: string, text: string): ShareLinks {
  const url = new URL(path, `${siteUrl.replace(/\/$/, "")}/`).toString();
  const x = `https://x.com/intent/tweet?${new URLSearchParams({ text, url })}`;
  const line = `https://social-plugins.line.me/lineit/share?${new URLSearchParams({ url })}`;
  return { url, x, line };
}
