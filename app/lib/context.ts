import type { Db } from "../db/client.server";
import type { Env } from "./env.server";

/** What Express hands every loader and action (see server/http.ts getLoadContext). */
export type AppContext = {
  db: Db;
  env: Env;
  cspNonce: string;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
