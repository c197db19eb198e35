/**
 * The page a React Router data request (`.data`) is for, as React Router itself resolves it with
 * trailing-slash-aware data requests (React Router 8): `/_.data` → `/`, `/trades/_.data` → `/trades/`,
 * `/trades.data` → `/trades`. Any other path is returned as it is. The edge (body limits), the
 * page cache and the metrics read paths through this so they agree with the router.
 */
export function pagePathOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length) || "/";
  return pathname;
}

/**
 * The page URL of a request as React Router hands it to loaders in their `url` argument: the
 * `.data` suffix and its `_routes` parameter removed. React Router 8 passes loaders and actions
 * the raw request, so code that has only the request (the sign-in guard's "come back here", the
 * input reader's query and body limit) reads its URL through this.
 */
export function pageUrlOf(request: Request): URL {
  const url = new URL(request.url);
  url.pathname = pagePathOf(url.pathname);
  url.searchParams.delete("_routes");
  return url;
}
