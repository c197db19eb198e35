import { createContext, Fragment, useContext, useState, type ReactNode } from "react";

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

/**
 * Components drawn inside stored HTML (a content card block drawn by the card face component):
 * `split` cuts the HTML into `nodes.length + 1` parts, node i drawn after part i. The loader data
 * must name the nodes, since a hydrating browser has only the document's parts.
 */
export type StoredHtmlIslands = { split: (html: string) => string[]; nodes: readonly ReactNode[] };

export function StoredHtmlBlock({ value, className, islands }: { value: StoredHtml; className?: string; islands?: StoredHtmlIslands }) {
  const documentHtml = useContext(DocumentHtmlContext);
  const count = islands?.nodes.length ?? 0;
  // Read once, when the element is first rendered: the document's own markup while hydrating.
  const [hydrated] = useState(() => {
    if (value.html !== undefined || typeof document === "undefined") return null;
    const root = document.querySelector(`[data-stored-html="${value.key}"]`);
    if (!count) return [root?.innerHTML ?? ""];
    return Array.from({ length: count + 1 }, (_, i) => root?.querySelector(`:scope > [data-stored-part="${i}"]`)?.innerHTML ?? "");
  });
  const html = value.html ?? documentHtml?.get(value.key);
  if (!islands || !count) {
    return <div className={className} data-stored-html={value.key} dangerouslySetInnerHTML={{ __html: html ?? hydrated?.[0] ?? "" }} suppressHydrationWarning />;
  }
  const parts = html !== undefined ? islands.split(html) : (hydrated ?? []);
  return (
    <div className={className} data-stored-html={value.key}>
      {Array.from({ length: count + 1 }, (_, i) => (
        <Fragment key={i}>
          <div className="stored-html-part" data-stored-part={i} dangerouslySetInnerHTML={{ __html: parts[i] ?? "" }} suppressHydrationWarning />
          {i < count ? islands.nodes[i] : null}
        </Fragment>
      ))}
    </div>
  );
}
