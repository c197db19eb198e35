// A micro-cache for what anonymous visitors read most: the board, the card pages, home and their
// public JSON APIs. A signed-out visitor sees the same bytes as every other signed-out visitor of
// the same URL and language, so for a few seconds one render serves them all (docs/decisions/044).
//
// - Only GET, only the paths in CACHEABLE, only requests whose cookies are none or the language
//   cookie alone (any other cookie — a session above all — goes straight to React Router).
// - Only 200 answers without Set-Cookie are kept, uncompressed; compression runs per answer.
// - The page's CSP nonce is per request: a kept page is stored split at its nonce and joined with
//   the new request's nonce, so every script still carries the nonce of its own CSP header.
// - Concurrent misses of one key wait for the first render instead of rendering it again.
// - Freshness is a TTL (PAGE_CACHE_SECONDS, 0 turns the cache off), and a change the change bus
//   announces (a board write, here or on another instance) clears the pages it touches at once;
//   signed-in users — the ones who just wrote something — never read from it.
import type { NextFunction, Request, Response } from "express";
import { LOCALE_COOKIE, localeFromCookie } from "#app/lib/i18n.tsx";

const CACHEABLE: RegExp[] = [
  /^\/(?:_\.data)?$/,
  /^\/trades(?:\.data)?$/,
  /^\/trades\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\.data)?$/,
  /^\/cards(?:\.data)?$/,
  /^\/cards\/[^/]+(?:\.data)?$/,
  /^\/api\/cards(?:\/search)?$/,
  /^\/api\/cards\/[^/]+\/[^/]+$/,
  /^\/api\/trades$/,
  /^\/deck-recipes(?:\.data)?$/,
  /^\/deck-recipes\/[^/]+(?:\.data)?$/,
  /^\/api\/decks(?:\/[^/]+)?$/,
  /^\/articles(?:\.data|\/feed\.xml)?$/,
  /^\/articles\/[a-z0-9-]{1,100}(?:\.data)?$/,
  /^\/api\/articles(?:\/[a-z0-9-]{1,100})?$/,
];

/** Headers of a kept answer that are replayed; the rest (CSP, dates, encodings) are per request. */
const KEPT_HEADERS = ["content-type", "cache-control", "content-language", "link", "x-robots-tag", "x-remix-response"];

type Entry = { parts: Buffer[]; headers: [string, string][]; expires: number; bytes: number };

export type PageCacheOptions = {
  ttlSeconds: number;
  maxEntries?: number;
  maxBytes?: number;
  /** Largest single answer kept. */
  maxEntryBytes?: number;
  now?: () => number;
};

export type PageCache = {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
  /** Forgets every kept answer, or those whose path matches. Renders under way are not kept. */
  clear(matches?: (path: string) => boolean): void;
};

const BOARD_PATHS: RegExp[] = [/^\/(?:_\.data)?$/, /^\/trades(?:\.data|\/|$)/, /^\/api\/trades$/, /^\/cards\/[^/]+$/, /^\/api\/cards\/[^/]+\/[^/]+$/];

/**
 * Paths whose answers show the trade board: home (新着の募集), the board, offer pages, card pages
 * (their trade counts) and their APIs. A board change forgets them (server/http.ts).
 */
export function showsBoard(path: string): boolean {
  return BOARD_PATHS.some((re) => re.test(path));
}

const LOCALE_ONLY = new RegExp(`^\\s*${LOCALE_COOKIE}=[^;]*;?\\s*$`);

/** The cache key, or null when this request must not read or fill the cache. */
export function pageCacheKey(req: Pick<Request, "method" | "path" | "originalUrl" | "headers">): string | null {
  if (req.method !== "GET") return null;
  const cookie = req.headers.cookie;
  if (cookie && !LOCALE_ONLY.test(cookie)) return null;
  if (!CACHEABLE.some((re) => re.test(req.path))) return null;
  return `${localeFromCookie(cookie)} ${req.originalUrl}`;
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const ttl = options.ttlSeconds * 1000;
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Array<(entry: Entry | null) => void>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  // Renders under way when a clear covered their page: they may show what changed, so their answer
  // is neither kept nor handed to the requests waiting on them (those render anew).
  const stale = new Set<string>();
  const pathOf = (key: string) => {
    const url = key.slice(key.indexOf(" ") + 1);
    const query = url.indexOf("?");
    return query < 0 ? url : url.slice(0, query);
  };

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  const store = (key: string, entry: Entry) => {
    remove(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    // Map order is insertion order and a hit re-inserts: the first key is the least recently used.
    while (entries.size > maxEntries || bytes > maxBytes) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      remove(oldest);
    }
  };

  const lookup = (key: string): Entry | null => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expires <= now()) {
      remove(key);
      return null;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };

  const serve = (res: Response, entry: Entry) => {
    const nonce = Buffer.from(String(res.locals.cspNonce ?? ""));
    const chunks: Buffer[] = [];
    entry.parts.forEach((part, i) => {
      if (i > 0) chunks.push(nonce);
      chunks.push(part);
    });
    const body = Buffer.concat(chunks);
    res.status(200);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("x-page-cache", "hit");
    res.setHeader("content-length", body.length);
    res.end(body);
  };

  /** Lets the render through while keeping a copy of what it writes. */
  const capture = (key: string, res: Response, next: NextFunction) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let keep = true;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (!keep || chunk == null || typeof chunk === "function") return;
      const buffer = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > maxEntryBytes) {
        keep = false;
        chunks.length = 0;
      } else {
        chunks.push(buffer);
      }
    };
    let settled = false;
    const settle = (rendered: Entry | null) => {
      if (settled) return;
      settled = true;
      const entry = stale.delete(key) ? null : rendered;
      if (entry) store(key, entry);
      const waiting = inflight.get(key) ?? [];
      inflight.delete(key);
      for (const wake of waiting) wake(entry);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
      collect(chunk, encoding);
      return write(chunk, encoding, cb);
    }) as Response["write"];
    res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
      collect(chunk, encoding);
      settle(keep && res.statusCode === 200 && !res.getHeader("set-cookie") ? entryOf(res, chunks, size) : null);
      return end(chunk, encoding, cb);
    }) as Response["end"];
    res.on("close", () => settle(null));
    res.setHeader("x-page-cache", "miss");
    next();
  };

  const entryOf = (res: Response, chunks: Buffer[], size: number): Entry => {
    const nonce = String(res.locals.cspNonce ?? "");
    const body = Buffer.concat(chunks, size);
    const parts = nonce ? body.toString("utf8").split(nonce).map((s) => Buffer.from(s)) : [body];
    const headers: [string, string][] = [];
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
    }
    return { parts, headers, expires: now() + ttl, bytes: size + 256 };
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (ttl <= 0) return next();
    const key = pageCacheKey(req);
    if (!key) return next();
    const entry = lookup(key);
    if (entry) {
      hits++;
      return serve(res, entry);
    }
    misses++;
    const waiting = inflight.get(key);
    if (waiting) {
      // Someone is rendering this right now: take their answer, or render ourselves if it is
      // not one to keep.
      waiting.push((rendered) => (rendered && !res.headersSent ? serve(res, rendered) : capture(key, res, next)));
      return;
    }
    inflight.set(key, []);
    capture(key, res, next);
  };

  return {
    middleware,
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
    clear: (matches) => {
      for (const key of inflight.keys()) if (!matches || matches(pathOf(key))) stale.add(key);
      if (!matches) {
        entries.clear();
        bytes = 0;
        return;
      }
      for (const key of [...entries.keys()]) if (matches(pathOf(key))) remove(key);
    },
  };
}
