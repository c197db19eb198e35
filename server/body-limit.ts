import type { RequestHandler } from "express";
import { BODY_LIMITS, bodyLimitFor, DEFAULT_BODY_LIMIT_BYTES, formatBytes, type BodyLimit } from "#app/lib/body-limits.ts";
import { answerAtEdge, edgeText } from "./edge-answer";
import { pagePathOf } from "#app/lib/data-url.ts";

/**
 * One size limit for every request body the site reads: JSON APIs, page form actions and Better
 * Auth's endpoints alike, applied once in server/http.ts before anything reads the body. The limits
 * are the one table of app/lib/body-limits.ts, which the input reader counts against as well.
 *
 * - A declared Content-Length past the limit is answered 413 at once, body never parsed; past
 *   1 MB the connection is closed rather than drained.
 * - A body without a Content-Length (chunked) cannot be judged up front: it gets 411, unread,
 *   unless its route reads its body through the input reader, which bounds it (`streaming: true`).
 *   Browsers send a Content-Length with every form and fetch body.
 *
 * APIs (`/api/…`, `.data` navigations, JSON requests) get `{"error", "code"}`; pages get a short
 * page in the visitor's language.
 */
const DRAIN_MAX_BYTES = 1024 * 1024;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function bodyLimit(options: { routes?: readonly BodyLimit[]; defaultBytes?: number } = {}): RequestHandler {
  const routes = options.routes ?? BODY_LIMITS;
  const defaultBytes = options.defaultBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  return (req, res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    // A form posted by the page's JavaScript goes to `/login.data`: its limit is the page's.
    const rule = bodyLimitFor(pagePathOf(req.path), routes, defaultBytes);
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
    answerAtEdge(req, res, status, status === 413 ? "too_large" : "length_required", (locale) =>
      status === 413 ? edgeText(locale, "tooLarge", { max: formatBytes(rule.maxBytes) }) : edgeText(locale, "lengthRequired"),
    );
  };
}
