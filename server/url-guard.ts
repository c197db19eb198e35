import type { RequestHandler } from "express";
import { answerAtEdge, edgeText } from "./edge-answer";

/**
 * Text that PostgreSQL cannot hold (U+0000) or that is not text at all (percent-escapes that
 * are not UTF-8) never reaches a route: a path with it is no page (404), a query with it is a
 * bad request (400). Bodies are checked by the schemas' shared rule (app/lib/text.ts).
 */
export function isReadableUrlPart(part: string, plusIsSpace = false): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(plusIsSpace ? part.replace(/\+/g, " ") : part);
  } catch {
    return false;
  }
  return !decoded.includes("\u0000");
}

export function urlGuard(): RequestHandler {
  return (req, res, next) => {
    const url = req.originalUrl;
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (!isReadableUrlPart(path)) return answerAtEdge(req, res, 404, "not_found", (locale) => edgeText(locale, "badPath"));
    if (q >= 0) {
      const query = url.slice(q + 1);
      if (!query.split("&").every((pair) => isReadableUrlPart(pair, true))) {
        return answerAtEdge(req, res, 400, "unreadable", (locale) => edgeText(locale, "badQuery"));
      }
    }
    next();
  };
}
