import type { RequestHandler } from "express";
import { answerAtEdge, edgeText } from "./edge-answer";

/**
 * One size limit for every request body the site reads: JSON APIs, page form actions and Better
 * Auth's endpoints alike, applied once in server/http.ts before anything reads the body.
 *
 * - A declared Content-Length past the limit is answered 413 at once, body never parsed; past
 *   1 MB the connection is closed rather than drained.
 * - A body without a Content-Length (chunked) cannot be judged up front: it gets 411, unread,
 *   unless its route reads its body itself with its own bound (`streaming: true`). Browsers send a
 *   Content-Length with every form and fetch body.
 * - A route that needs more (the CSV import, uploads) gets an override in BODY_LIMIT_ROUTES: its
 *   own maximum, and `streaming` when it counts the bytes as it reads them.
 *
 * APIs (`/api/…`, `.data` navigations, JSON requests) get `{"error"}`; pages get a short page in
 * the visitor's language.
 */
export type BodyLimitRoute = {
  /** Exact path, or a prefix when it ends with "/". */
  path: string;
  maxBytes: number;
  /** The route bounds a body of unknown length itself while reading it. */
  streaming?: boolean;
};

export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

const DRAIN_MAX_BYTES = 1024 * 1024;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function limitFor(pathname: string, routes: readonly BodyLimitRoute[], defaultBytes: number): BodyLimitRoute {
  const found = routes.find((r) => (r.path.endsWith("/") ? pathname.startsWith(r.path) : pathname === r.path));
  return found ?? { path: pathname, maxBytes: defaultBytes };
}

export function bodyLimit(options: { routes: readonly BodyLimitRoute[]; defaultBytes?: number }): RequestHandler {
  const defaultBytes = options.defaultBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  return (req, res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    const rule = limitFor(req.path, options.routes, defaultBytes);
    const declared = req.headers["content-length"];
    const chunked = declared === undefined && req.headers["transfer-encoding"] !== undefined;
    let status: 411 | 413 | 0 = 0;
    if (declared !== undefined && !(Number(declared) <= rule.maxBytes)) status = 413;
    else if (chunked && !rule.streaming) status = 411;
    if (!status) return next();

    // Never parsed or kept. A body up to DRAIN_MAX_BYTES is let through the socket and dropped, so
    // the client (a browser posting a big form) reads the answer on a healthy connection; past that
    // the connection closes instead of reading it.
    if (status === 411 || !(Number(declared) <= DRAIN_MAX_BYTES)) res.setHeader("Connection", "close");
    answerAtEdge(req, res, status, (locale) =>
      status === 413 ? edgeText(locale, "tooLarge", { max: formatBytes(rule.maxBytes) }) : edgeText(locale, "lengthRequired"),
    );
  };
}
