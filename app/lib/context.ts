import type { Db } from "#app/db/client.server.ts";
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
}

// Loaders get a RouterContextProvider (React Router 8 always runs middleware): server/http.ts
// builds one carrying these fields, so routes read them as before. The class is declared in
// react-router's router module, once in each of its two type trees (the package index uses the
// production one, the route types of `react-router/internal` the development one); a re-export
// cannot be augmented, so both declarations are.
declare module "../../node_modules/react-router/dist/production/lib/router/utils.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouterContextProvider extends AppContext {}
}
declare module "../../node_modules/react-router/dist/development/lib/router/utils.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouterContextProvider extends AppContext {}
}
