/**
 * Every request body's size limit, declared once. The edge (server/body-limit.ts) refuses a
 * declared Content-Length past it before any route runs; the input reader (lib/input.server.ts)
 * counts the bytes against the same figure while it reads, so a chunked body or one that lies
 * about its length stops at the same place. A route that needs more than the default adds its
 * path here — nowhere else.
 */
export type BodyLimit = {
  /** Exact path, or a prefix when it ends with "/". */
  path: string;
  maxBytes: number;
  /** The route reads its body through the input reader, which bounds a body of unknown length itself. */
  streaming?: boolean;
};

const KB = 1024;
const MB = 1024 * 1024;

export const DEFAULT_BODY_LIMIT_BYTES = 256 * KB;

export const BODY_LIMITS: readonly BodyLimit[] = [
  // Log-in, sign-up and Better Auth's endpoints never need more than a few hundred bytes.
  { path: "/api/auth/", maxBytes: 16 * KB },
  { path: "/login", maxBytes: 16 * KB },
  { path: "/signup", maxBytes: 16 * KB },
  // A CSV of at most 5 MB (features/cards/import.server.ts), plus what JSON escaping adds to it.
  { path: "/api/admin/cards/import", maxBytes: 6 * MB, streaming: true },
  // カタログ更新: the package's JSON files (about 2 MB today) or a CSV, with room for newer sets.
  { path: "/api/admin/cards/catalogue", maxBytes: 12 * MB, streaming: true },
  // An image of at most 10 MB (features/uploads/rules.ts), plus the multipart framing around it.
  { path: "/api/admin/uploads", maxBytes: 10 * MB + 64 * KB, streaming: true },
  // An article of 100,000 characters of Japanese is ~300 KB of UTF-8; its SEO suggestion sends the same text.
  { path: "/api/admin/articles", maxBytes: 512 * KB, streaming: true },
  { path: "/api/admin/articles/", maxBytes: 512 * KB, streaming: true },
  { path: "/api/admin/seo/suggest", maxBytes: 512 * KB, streaming: true },
  // A collection CSV of at most 1 MB (features/collection/collection.server.ts) plus multipart framing.
  { path: "/api/collection/import", maxBytes: 1 * MB + 64 * KB, streaming: true },
  // Site settings are five short fields; a trade-rule change is a few ids and a date.
  { path: "/api/admin/settings", maxBytes: 16 * KB },
  { path: "/api/admin/trade-rules", maxBytes: 8 * KB },
  // A push subscription is an endpoint URL and two keys; notification settings a few flags and two times.
  { path: "/api/push/subscription", maxBytes: 8 * KB },
  { path: "/api/notifications/settings", maxBytes: 16 * KB },
  // The analytics page script's hits are a few hundred bytes (server/analytics.ts).
  { path: "/api/event", maxBytes: 4 * KB },
];

/** The limit of a path: its entry in BODY_LIMITS, or the default. */
export function bodyLimitFor(pathname: string, routes: readonly BodyLimit[] = BODY_LIMITS, defaultBytes = DEFAULT_BODY_LIMIT_BYTES): BodyLimit {
  const found = routes.find((r) => (r.path.endsWith("/") ? pathname.startsWith(r.path) : pathname === r.path));
  return found ?? { path: pathname, maxBytes: defaultBytes };
}

export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / KB)} KB`;
}
