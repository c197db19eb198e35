import type { RequestHandler } from "express";
import { createWorkPool, type WorkPool } from "../app/lib/work-pool.server";
import { answerAtEdge, edgeText } from "./edge-answer";

/**
 * Admission for server renders (docs/decisions/026): at most `concurrency` page loads (a document,
 * a `.data` navigation or a resource route's GET, each through React Router) are in progress at
 * once, and the others wait their turn in arrival order, at most `maxWaiting` of them. Past that a
 * request is refused at once with 503 `busy` (`{error, code}` for APIs and `.data`, the short edge
 * page for documents) and a `Retry-After`.
 *
 * Without it every request that arrives starts at once and they all share the one thread (and, on
 * PGlite, the one connection) a slice at a time: under load every render takes as long as all of
 * them together, and the one whose loader needs several queries, or that a garbage collection
 * pause lands on, keeps losing its turn to requests that arrived after it — long tails with a short
 * median. With a short line in front, each render runs with few others beside it and leaves in the
 * order it came.
 *
 * Only GET and HEAD wait: a form post or an upload is never made to queue (or be refused) behind
 * page views, and its body is not read while it holds a place. Mounted after the page cache, so a
 * shared render served from the cache never waits; health checks, assets, Socket.IO, Better Auth
 * and the JSON read APIs answered straight by Express are mounted before it. A place is held until
 * the answer is finished or the connection closes; a visitor who leaves while waiting costs no render.
 */
export type RenderLimit = {
  middleware: RequestHandler;
  /** Renders in progress. */
  readonly running: number;
  /** Renders waiting for a place. */
  readonly waiting: number;
  /** Renders refused with 503 since start. */
  readonly refused: number;
};

export function renderLimit(options: { concurrency: number; maxWaiting: number }): RenderLimit {
  // 0 turns the limit off (every render starts at once, as before).
  const pool: WorkPool | null = options.concurrency > 0 ? createWorkPool(options) : null;
  let refused = 0;
  const middleware: RequestHandler = (req, res, next) => {
    if (!pool || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const place = pool.enter();
    if (!place) {
      refused++;
      res.setHeader("Retry-After", "1");
      return answerAtEdge(req, res, 503, "busy", (locale) => edgeText(locale, "busy"));
    }
    let gone = false;
    const onGone = () => (gone = true);
    res.once("close", onGone);
    void place.run(
      () =>
        new Promise<void>((resolve) => {
          res.off("close", onGone);
          if (gone) return resolve();
          res.once("finish", () => resolve());
          res.once("close", () => resolve());
          next();
        }),
    );
  };
  return {
    middleware,
    get running() {
      return pool?.running ?? 0;
    },
    get waiting() {
      return pool ? pool.taken - pool.running : 0;
    },
    get refused() {
      return refused;
    },
  };
}
