/**
 * Where to go after logging in: only a path on this site. Anything that a browser could read as
 * another origin ("//evil", "/\\evil", "https://…", control characters) falls back to `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!isSitePath(to)) return fallback;
  // Whitespace and control characters are stripped or kept by browsers in ways that differ.
  if (/[\u0000-\u001F\u007F\\\s]/u.test(to)) return fallback;
  try {
    const url = new URL(to, BASE);
    if (url.origin !== BASE) return fallback;
    const target = url.pathname + url.search + url.hash;
    // Dot segments are resolved above: "/.//x" and "/..//x" become "//x", which a browser reads
    // as another host. What we answer must itself be a site path that resolves to this origin.
    if (!isSitePath(target) || new URL(target, BASE).origin !== BASE) return fallback;
    return target;
  } catch {
    return fallback;
  }
}

const BASE = "http://same.invalid";
const isSitePath = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");

/**
 * Inputs that must never lead off the site (used by the unit tests and by the login, sign-up and
 * language-switch route tests, so every entry point is checked against the same list).
 */
export const OFF_SITE_REDIRECTS: readonly string[] = [
  "//evil.example/phish",
  "/\\evil.example/phish",
  "/.//evil.example/phish",
  "/..//evil.example/phish",
  "/./..//evil.example",
  "/a/..//evil.example",
  "/a/../..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "%2F%2Fevil.example",
  "%2f%5cevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r//evil.example",
  "\t//evil.example",
  " //evil.example",
  "https:evil.example",
  "https://evil.example",
  "http:/evil.example",
  "javascript:alert(1)",
  "\\\\evil.example",
  "///evil.example",
  "/\u3000//evil.example",
];
