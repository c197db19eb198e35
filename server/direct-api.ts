// The hot read APIs — card search, the board and マッチ as JSON — are plain loaders of React Router
// resource routes (app/routes/api.*.ts). For GET requests to them, Express calls that same loader
// directly: no route matching over the whole tree, no data strategy, no stream piping of a body
// that is already complete. Everything else (pages, actions, other APIs) goes through React
// Router's handler as before. The loaders do not know the difference (docs/decisions/007).
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { ServerBuild } from "react-router";
import type { AppContext } from "../app/lib/context";

/** Exact paths → route ids of the server build. */
const DIRECT_ROUTES: Record<string, string> = {
  "/api/cards/search": "routes/api.cards.search",
  "/api/trades": "routes/api.trades",
  "/api/trades/matches": "routes/api.trades.matches",
};

type Loader = (args: { request: Request; params: Record<string, string>; context: AppContext }) => Promise<unknown>;

export function directApi(options: { build: ServerBuild; siteOrigin: string; context: (res: ExpressResponse) => AppContext }) {
  const loaders = new Map<string, Loader>();
  for (const [path, id] of Object.entries(DIRECT_ROUTES)) {
    const loader = options.build.routes[id]?.module.loader as Loader | undefined;
    if (!loader) throw new Error(`direct API route ${id} has no loader in the server build`);
    loaders.set(path, loader);
  }

  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method !== "GET") return next();
    const loader = loaders.get(req.path);
    if (!loader) return next();
    try {
      const headers = new Headers();
      for (const name of ["cookie", "accept-language", "user-agent"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const request = new Request(`${options.siteOrigin}${req.originalUrl}`, { headers });
      let result: unknown;
      try {
        result = await loader({ request, params: {}, context: options.context(res) });
      } catch (thrown) {
        result = thrown;
      }
      await send(res, result);
    } catch (error) {
      next(error);
    }
  };
}

/** Writes what a loader returned or threw: a Response, or React Router's data() with its init. */
async function send(res: ExpressResponse, result: unknown): Promise<void> {
  if (result instanceof Response) {
    res.status(result.status);
    result.headers.forEach((value, name) => {
      if (name !== "content-length") res.append(name, value);
    });
    res.end(Buffer.from(await result.arrayBuffer()));
    return;
  }
  if (isDataWithInit(result)) {
    const init = result.init ?? {};
    res.status(init.status ?? 200);
    new Headers(init.headers).forEach((value, name) => res.append(name, value));
    res.json(result.data);
    return;
  }
  throw result instanceof Error ? result : new Error("a direct API loader returned neither a Response nor data()");
}

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; data: unknown; init?: { status?: number; headers?: HeadersInit } } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}
