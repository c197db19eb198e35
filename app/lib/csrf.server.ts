/**
 * One rule against cross-site request forgery for every state-changing request the site serves
 * (our actions and APIs and Better Auth's endpoints alike), applied once in server/http.ts:
 *
 * - GET/HEAD/OPTIONS never change state here, so they pass.
 * - Otherwise the request's Origin — or, when a client sends none, its Referer — must be the
 *   site's own origin (SITE_URL), or name the very host the request was sent to.
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
  if (claimed === "null") return false;
  if (claimed === siteOrigin) return true;
  try {
    return request.host !== undefined && new URL(claimed).host === request.host;
  } catch {
    return false;
  }
}

function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
