/**
 * The page a React Router data request (`.data`) is for, as React Router itself resolves it with
 * v8_trailingSlashAwareDataRequests on: `/_.data` → `/`, `/trades/_.data` → `/trades/`,
 * `/trades.data` → `/trades`. Any other path is returned as it is. The edge (body limits), the
 * page cache and the metrics read paths through this so they agree with the router.
 */
export function pagePathOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length) || "/";
  return pathname;
}
