import { useEffect } from "react";

/**
 * A "done" banner (募集を投稿しました) belongs to the moment after the action: once shown, the
 * ?done= parameter leaves the address bar, so a reload, a bookmark or a copied link does not
 * show it again. The router's state is kept; only the URL changes.
 */
export function useOnceBanner<T>(done: T | null): T | null {
  useEffect(() => {
    if (done === null) return;
    const url = new URL(window.location.href);
    if (!url.searchParams.has("done")) return;
    url.searchParams.delete("done");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [done]);
  return done;
}
