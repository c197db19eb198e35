import type { Db } from "../db/client.server";
import type { Env } from "./env.server";

/** What Express hands every loader and action (see server/http.ts getLoadContext). */
export type AppContext = {
  db: Db;
  env: Env;
  cspNonce: string;
  /** Adds a Set-Cookie header to this request's response (a refreshed session cookie). */
  setCookie?: (cookie: string) => void;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
