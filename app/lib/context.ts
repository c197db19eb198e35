import type { Db } from "../db/client.server";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";

/** What Express hands every loader and action (see server/http.ts getLoadContext). */
export type AppContext = {
  db: Db;
  env: Env;
  cspNonce: string;
  /**
   * This request's logger (its lines carry `requestId`) and the id itself, also sent back as the
   * `X-Request-Id` header. server/http.ts always sets both; read the logger with
   * `requestLog(context)` (lib/logger.server.ts), which also serves a context a test built without one.
   */
  log?: Logger;
  requestId?: string;
  /** Adds a Set-Cookie header to this request's response (a refreshed session cookie). */
  setCookie?: (cookie: string) => void;
  /**
   * On a page's document request (not a client navigation's `.data`): the stored HTML the
   * document renders and its hydration data leaves out, by key (lib/stored-html.server.ts).
   */
  documentHtml?: Map<string, string>;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
  // With React Router's v8 middleware, loaders get a RouterContextProvider: server/http.ts
  // builds one carrying these fields (appLoadContext below), so routes read them as before.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouterContextProvider extends AppContext {}
}
