import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import { Server as SocketServer } from "socket.io";
import type { Database } from "../app/db/client.server";
import type { AppContext } from "../app/lib/context";
import type { Env } from "../app/lib/env.server";
import { AUTH_BASE_PATH, authRequestHandler, CLIENT_IP_HEADER, getAuth } from "../app/lib/auth.server";
import { isCsrfSafe } from "../app/lib/csrf.server";
import { localeFromCookie, translate } from "../app/lib/i18n";
import { usersMessages } from "../app/features/users/messages";
import { toNodeHandler } from "better-auth/node";
import type { Logger } from "./logger";
import { directApi } from "./direct-api";
import { createPageCache } from "./page-cache";
import { attachRealtime, type Realtime } from "./realtime";

export type HttpApp = {
  server: Server;
  io: SocketServer;
  realtime: Realtime;
};

export async function createHttpApp(options: {
  env: Env;
  database: Database;
  build: ServerBuild;
  clientDir: string;
  log: Logger;
}): Promise<HttpApp> {
  const { env, database, build, clientDir, log } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  const secure = env.siteUrl.startsWith("https:");
  const siteOrigin = new URL(env.siteUrl);
  const wsOrigin = `${secure ? "wss" : "ws"}://${siteOrigin.host}`;

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const isAsset = req.path.startsWith("/assets/");
      (isAsset ? log.debug : log.info)("request", {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ip: req.ip,
      });
    });
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });

  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:", "https:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'", wsOrigin],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(secure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: secure ? { maxAge: 15552000, includeSubDomains: false } : false,
      crossOriginEmbedderPolicy: false,
      // Not helmet's no-referrer: under it browsers send "Origin: null" with a plain form POST,
      // which the CSRF rule below must refuse. same-origin still sends nothing to other sites.
      referrerPolicy: { policy: "same-origin" },
    }),
  );
  app.use(compression());

  // CSRF: one rule for every state-changing request (app/lib/csrf.server.ts).
  app.use((req, res, next) => {
    // Auth rate limits key on Express's req.ip, never on a header the client chose.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    const ok = isCsrfSafe(
      { method: req.method, origin: req.headers.origin, referer: req.headers.referer, cookie: req.headers.cookie, host: req.headers.host },
      siteOrigin.origin,
    );
    if (ok) return next();
    res.status(403).json({ error: translate(usersMessages, localeFromCookie(req.headers.cookie), "errorCsrf") });
  });

  // Better Auth at /api/auth/*, before any body parser (it reads the raw body itself).
  const authHandler = toNodeHandler(authRequestHandler(getAuth(database.db, env)));
  app.all(`${AUTH_BASE_PATH}/*splat`, (req, res) => void authHandler(req, res));

  app.get("/healthz", async (_req, res) => {
    try {
      await database.ping();
      res.json({ status: "ok", db: "ok" });
    } catch {
      res.status(503).json({ status: "error", db: "unreachable" });
    }
  });

  // Hashed build assets never change: cache them for a year.
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
  // Uploaded files (card art stored by `cards:images`) are named by their content: cache them for a year.
  app.use("/uploads", express.static(path.join(env.dataDir, "uploads"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  // The other public files (favicon.ico, …) are known once the build exists: only their paths look
  // at the disk, so a page or API request never pays for a file-system lookup that must fail.
  const publicEntries = new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicEntries.has(firstSegment(req.path)) ? publicFiles(req, res, next) : next()));

  const server = createServer(app);
  const io = new SocketServer(server, {
    serveClient: false,
    cors: { origin: false },
    allowRequest: (req, callback) => {
      // Same-origin only: a page on another site must not open a socket with our cookie.
      const origin = req.headers.origin;
      callback(null, !origin || origin === siteOrigin.origin || isLoopbackOrigin(origin, req.headers.host));
    },
  });
  const realtime = await attachRealtime({ io, env, database, log });

  // Signed-out visitors of the board, the card pages and their APIs share renders for a few seconds.
  app.use(createPageCache({ ttlSeconds: env.pageCacheSeconds }).middleware);

  const loadContext = (res: express.Response): AppContext => ({
    db: database.db,
    env,
    cspNonce: res.locals.cspNonce as string,
  });
  // The hot read APIs call their route's loader directly (server/direct-api.ts).
  app.use(directApi({ build, siteOrigin: siteOrigin.origin, context: loadContext }));
  app.use(
    createRequestHandler({
      build,
      mode: env.nodeEnv === "development" ? "development" : "production",
      getLoadContext: (_req, res) => loadContext(res),
    }),
  );

  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    log.error("unhandled error", { error: err instanceof Error ? err.message : String(err) });
    if (!res.headersSent) res.status(500).json({ error: "Internal Server Error" });
  });

  return { server, io, realtime };
}

function firstSegment(pathname: string): string {
  const end = pathname.indexOf("/", 1);
  const segment = pathname.slice(1, end < 0 ? undefined : end);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isLoopbackOrigin(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
