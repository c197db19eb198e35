/**
 * Where this site sends pushes: only to the push services browsers use (https), plus the origins
 * an operator lists in PUSH_SERVICE_ORIGINS (a self-hosted or test push service). Checked when a
 * subscription is saved and again before each push (rows saved under an older rule), so an
 * endpoint can never make the server request an arbitrary host.
 */
const KNOWN_HOSTS = ["fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com"];
const KNOWN_SUFFIXES = [".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com"];

export function isPushServiceEndpoint(endpoint: string, extraOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (extraOrigins.includes(url.origin)) return true;
  if (url.protocol !== "https:" || url.port !== "") return false;
  const host = url.hostname.toLowerCase();
  return KNOWN_HOSTS.includes(host) || KNOWN_SUFFIXES.some((suffix) => host.endsWith(suffix));
}
