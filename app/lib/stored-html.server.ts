import type { AppLoadContext } from "react-router";
import type { StoredHtml } from "./stored-html";

/**
 * A loader's stored HTML (lib/stored-html.tsx): on a document request it goes to the server's
 * render only and the loader data names it by key; on a client navigation (or without a document,
 * as in tests) the loader data carries it.
 */
export function storedHtml(context: AppLoadContext, key: string, html: string): StoredHtml {
  const documentHtml = context.documentHtml;
  if (!documentHtml) return { key, html };
  documentHtml.set(key, html);
  return { key };
}
