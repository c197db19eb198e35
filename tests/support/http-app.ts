import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { Database } from "#app/db/client.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { createLogger, type Logger } from "#app/lib/logger.server.ts";
import { createHttpApp, type HttpApp } from "#server/http.ts";

type RouteModule = Record<string, unknown>;

/**
 * The real Express app of server/http.ts (CSRF, URL guard, body limits, Better Auth, analytics,
 * the page cache, React Router's handler) in front of a few real route modules, keyed by their
 * URL pattern ("api/admin/seo/suggest", "api/admin/articles/:id"). A request through it meets
 * every edge rule a browser's request meets. Pages render as a stub document: what is tested is
 * the edge and the route's action or loader, not the markup.
 */
export async function startHttpApp(options: {
  env: Env;
  database: Database;
  routes: Record<string, RouteModule>;
  /** Silent unless given. */
  log?: Logger;
  /** The IPv4 address to listen on (127.0.0.1 unless given): another one makes the test's requests come from a peer that is not loopback. */
  host?: string;
}): Promise<{ base: string; app: HttpApp; close(): Promise<void> }> {
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: { default: () => null } as never },
  };
  for (const [pattern, module] of Object.entries(options.routes)) {
    routes[pattern] = { id: pattern, parentId: "root", path: pattern, module: module as never };
  }
  const build = {
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers) => new Response("<!doctype html><title>page</title>", { status, headers: { ...Object.fromEntries(headers), "content-type": "text/html" } }),
      },
    },
    routes,
    assets: { entry: { imports: [], module: "/entry.js" }, routes: {}, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
  const clientDir = mkdtempSync(path.join(tmpdir(), "torepoke-client-"));
  const app = await createHttpApp({ env: options.env, database: options.database, build, clientDir, log: options.log ?? createLogger("silent") });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => app.server.listen(0, host, resolve));
  const base = `http://${host}:${(app.server.address() as AddressInfo).port}`;
  return {
    base,
    app,
    close: async () => {
      app.server.closeAllConnections();
      await new Promise<void>((resolve) => app.io.close(() => resolve()));
      await app.realtime.close();
      await app.analytics.close();
      await app.metrics.close();
    },
  };
}
