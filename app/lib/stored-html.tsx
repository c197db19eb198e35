import { createContext, useContext, useState } from "react";

/**
 * Stored HTML (an article's body, a deck's description) is sent to the browser once. A page's
 * document carries it as markup, and its hydration data leaves it out: the loader hands it to the
 * server's render through this context instead (lib/stored-html.server.ts, provided by
 * entry.server). A client navigation's `.data` answer has no markup, so it carries the HTML.
 *
 * In the browser, hydrating the document, the element keeps the markup the server sent: an
 * element with `dangerouslySetInnerHTML` is not hydrated inside, and the first render copies the
 * markup from the document so that a render from scratch (a hydration mismatch elsewhere) shows
 * the same HTML.
 */
export type StoredHtml = {
  /** Names the HTML within one document: a fixed word of letters and dashes, one per kind of stored HTML on a page. */
  key: string;
  /** Absent on a document request: the document itself carries it. */
  html?: string;
};

/** The stored HTML of this document's loaders, by key; null in the browser. */
export const DocumentHtmlContext = createContext<ReadonlyMap<string, string> | null>(null);

export function StoredHtmlBlock({ value, className }: { value: StoredHtml; className?: string }) {
  const documentHtml = useContext(DocumentHtmlContext);
  // Read once, when the element is first rendered: the document's own markup while hydrating.
  const [hydrated] = useState(() => (value.html === undefined && typeof document !== "undefined" ? (document.querySelector(`[data-stored-html="${value.key}"]`)?.innerHTML ?? "") : ""));
  const html = value.html ?? documentHtml?.get(value.key) ?? hydrated;
  return <div className={className} data-stored-html={value.key} dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}
