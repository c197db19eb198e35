// The hottest read APIs — card search, the board and マッチ as JSON — answered straight from
// Express: no route matching over the whole tree, no data strategy, no stream piping of a body
// that is already complete. Each is the very endpoint function its route module exports as its
// loader (app/lib/api.server.ts JsonEndpoint), with the same error mapping, so both paths answer
// the same (tests/integration/json-api.test.ts). Everything else goes through React Router.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { cardSearchEndpoint } from "#app/features/cards/endpoints.server.ts";
import { boardEndpoint, matchesEndpoint } from "#app/features/trades/endpoints.server.ts";
import { answerEndpoint, type JsonEndpoint } from "#app/lib/api.server.ts";
import type { AppContext } from "#app/lib/context.ts";

/** Exact paths of the GET endpoints Express answers itself. */
export const JSON_ENDPOINTS: Record<string, JsonEndpoint> = {
  "/api/cards/search": cardSearchEndpoint,
  "/api/trades": boardEndpoint,
  "/api/trades/matches": matchesEndpoint,
};

export function jsonApi(options: { siteOrigin: string; context: (res: ExpressResponse) => AppContext }) {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method !== "GET") return next();
    const endpoint = JSON_ENDPOINTS[req.path];
    if (!endpoint) return next();
    try {
      const headers = new Headers();
      for (const name of ["cookie", "accept-language", "user-agent"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const response = await answerEndpoint(endpoint, new Request(`${options.siteOrigin}${req.originalUrl}`, { headers }), options.context(res));
      res.status(response.status);
      // Headers as the endpoint set them (res.append would add a charset to Content-Type).
      response.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "set-cookie") res.setHeader(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.append("set-cookie", cookies);
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      next(error);
    }
  };
}
