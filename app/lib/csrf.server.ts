/**
 * One rule against cross-site request forgery for every state-changing request the site serves
 * (our actions and APIs and Better Auth's endpoints alike), applied once in server/http.ts:
 *
 * - GET/HEAD/OPTIONS never change state here, so they pass.
 * - Otherwise the request's Origin — or, when a client sends none, its Referer — must be the
 *   site's own origin (SITE_URL): scheme, host and port all compared (isSiteOrigin). An https page
 *   on the same host and port is another origin. A site on a loopback name (localhost) also
 *   takes its other loopback names (127.0.0.1, [::1]) on the same scheme and port.
 * - A request with neither header carries no browser provenance: browsers always send Origin on
 *   cross-site POSTs. It passes only when it also carries no cookie, i.e. it cannot ride on a
 *   signed-in user's session (the same stance as Better Auth's own origin check).
 */
export type CsrfInput = {
  method: string;
  origin: string | undefined;
  referer: string | undefined;
  cookie: string | undefined;
  host: string | undefined;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCsrfSafe(request: CsrfInput, siteOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
  const claimed = request.origin ?? originOf(request.referer);
  if (claimed === undefined) return !request.cookie;
  return isSiteOrigin(claimed, siteOrigin);
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The one origin comparison of the site: CSRF (Origin, Referer) and the Socket.IO handshake. */
export function isSiteOrigin(claimed: string, siteOrigin: string): boolean {
  if (claimed === siteOrigin) return true;
  let url: URL;
  let site: URL;
  try {
    url = new URL(claimed);
    site = new URL(siteOrigin);
  } catch {
    return false;
  }
  if (url.origin === "null" || url.origin !== claimed.replace(/\/$/, "")) return false;
  if (url.origin === site.origin) return true;
  return LOOPBACK.has(site.hostname) && LOOPBACK.has(url.hostname) && url.protocol === site.protocol && url.port === site.port;
}

function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
