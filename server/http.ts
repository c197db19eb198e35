import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { Server as SocketServer } from "socket.io";
import type { Database } from "#app/db/client.server.ts";
import type { AppContext } from "#app/lib/context.ts";
import type { Env } from "#app/lib/env.server.ts";
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, getAuth, publicAuthRequestHandler } from "#app/features/users/auth.server.ts";
import { isCsrfSafe, isSiteOrigin } from "#app/lib/csrf.server.ts";
import { onChange } from "#app/lib/change-bus.server.ts";
import { HttpError } from "#app/lib/api.server.ts";
import { UserError } from "#app/features/users/errors.ts";
import { IMMUTABLE_CACHE_CONTROL, LOCAL_UPLOADS_PATH, localUploadsDir } from "#app/features/uploads/storage.server.ts";
import { toNodeHandler } from "better-auth/node";
import { errorFields, type Logger } from "#app/lib/logger.server.ts";
import { bodyLimit } from "./body-limit";
import { answerClientError, clientErrorStatus, sendRefusal } from "./edge-answer";
import { jsonApi } from "./json-api";
import { urlGuard } from "./url-guard";
import { createPageCache, showsBoard } from "./page-cache";
import { attachRealtime, type Realtime } from "./realtime";
import { attachAnalytics, type Analytics } from "./analytics";
import { createMetrics, type Metrics } from "./metrics";

export type HttpApp = {
  server: Server;
  io: SocketServer;
  realtime: Realtime;
  analytics: Analytics;
  metrics: Metrics;
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
  // req.ip is the one client address: every per-IP limit (sign-in, sign-up, the sign-in back-off,
  // analytics), the request log and the analytics visitor hash read it (TRUST_PROXY).
  app.set("trust proxy", env.trustProxy);
  const secure = env.siteUrl.startsWith("https:");
  const siteOrigin = new URL(env.siteUrl);
  const wsOrigin = `${secure ? "wss" : "ws"}://${siteOrigin.host}`;
  // Prometheus request timings by route pattern (server/metrics.ts), around everything below.
  const metrics = createMetrics({ env, build, log, db: database.db });
  app.use(metrics.middleware);

  // First-party analytics: the collection endpoint and its jobs (server/analytics.ts). The endpoint
  // answers before the page middleware below (request id and logger, CSP nonce, helmet, compression,
  // CSRF): a hit is a 204 without a body that checks its own origin and has its own body limit, and
  // at a few thousand hits a second those steps were much of its cost. Hits write no request line.
  const analytics = attachAnalytics(app, { env, database, log, guards: [bodyLimit()] });

  // Every request gets an id: its logger (on the load context) carries it in each line, its own
  // request line names it, and the answer's X-Request-Id header lets a report point at those lines.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const requestLog = log.child({ requestId });
    res.locals.requestId = requestId;
    res.locals.log = requestLog;
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const isAsset = req.path.startsWith("/assets/");
      (isAsset ? requestLog.debug : requestLog.info)("request", {
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
          // LINEでログイン's form is answered with a redirect to LINE, which form-action also governs.
          formAction: ["'self'", ...(env.line ? [new URL(env.line.authorizationUrl).origin] : [])],
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
    sendRefusal(req, res, new UserError("csrf"));
  });

  // A URL with NUL bytes or escapes that are not UTF-8 never reaches a route (server/url-guard.ts).
  app.use(urlGuard());
  // Every body has a size limit, declared once in app/lib/body-limits.ts (server/body-limit.ts).
  app.use(bodyLimit());

  // Better Auth at /api/auth/*, before any body parser (it reads the raw body itself): only the
  // endpoints a browser uses itself; the rest are reached through our page actions.
  const authHandler = toNodeHandler(publicAuthRequestHandler(getAuth(database.db, env), env));
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
  // Uploads in the local store (with S3_BUCKET set, pages link to the bucket instead). Names are
  // never reused, so caches keep them for good; only the WebP files the server wrote are served,
  // as images, never sniffed, under a CSP that lets nothing run.
  app.use(LOCAL_UPLOADS_PATH, (req, res, next) => (/^\/[a-z0-9-]+\/[A-Za-z0-9_-]+\.webp$/.test(req.path) ? next() : res.status(404).end()));
  app.use(
    LOCAL_UPLOADS_PATH,
    express.static(localUploadsDir(env), {
      index: false,
      dotfiles: "deny",
      setHeaders: (res) => {
        res.setHeader("Cache-Control", IMMUTABLE_CACHE_CONTROL);
        res.setHeader("Content-Type", "image/webp");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      },
    }),
  );
  app.use(LOCAL_UPLOADS_PATH, (_req, res) => void res.status(404).end());
  // The other public files (favicon.ico, …) are known once the build exists: only their paths look
  // at the disk, so a page or API request never pays for a file-system lookup that must fail.
  const publicEntries = new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicEntries.has(firstSegment(req.path)) ? publicFiles(req, res, next) : next()));

  const server = createServer(app);
  // An idle keep-alive connection stays open for 65 s (Node closes it after 5 s by default). A
  // client or proxy that reuses a connection just as the server closes it sees ECONNRESET; a
  // window longer than the usual 60 s idle timeout of load balancers keeps the server from being
  // the side that closes. Headers must still arrive within their own, longer, limit.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const io = new SocketServer(server, {
    serveClient: false,
    // A chat message is at most 1,000 characters: nothing on this socket needs Socket.IO's 1 MB.
    maxHttpBufferSize: 64 * 1024,
    cors: { origin: false },
    allowRequest: (req, callback) => {
      // Same-origin only (scheme, host and port): a page on another site must not open a socket with our cookie.
      const origin = req.headers.origin;
      callback(null, !origin || isSiteOrigin(origin, siteOrigin.origin));
    },
  });
  // Long-polling answers bypass Express and helmet: give them the headers that matter for a
  // response a browser might sniff or frame.
  io.engine.on("headers", (headers: Record<string, string>) => {
    headers["X-Content-Type-Options"] = "nosniff";
    headers["X-Frame-Options"] = "DENY";
    headers["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'none'";
    headers["Cross-Origin-Resource-Policy"] = "same-origin";
    headers["Referrer-Policy"] = "same-origin";
  });
  const realtime = await attachRealtime({ io, env, database, log });
  await metrics.start(io);

  // Signed-out visitors of the board, the card pages and their APIs share renders for a few seconds.
  const pageCache = createPageCache({ ttlSeconds: env.pageCacheSeconds });
  // Every page's head shows the site settings: a save anywhere empties the shared renders.
  const stopSettingsPurge = onChange("settings", () => pageCache.clear());
  server.on("close", stopSettingsPurge);
  // An article published, changed or taken down anywhere: shared renders (lists, home, the page itself) go.
  const stopContentPurge = onChange("content", () => pageCache.clear());
  server.on("close", stopContentPurge);
  // An offer posted, changed or closed anywhere (a block, a suspension, a new name): the board's
  // shared renders go — home, the board, offer pages, card pages with their trade counts.
  const stopBoardPurge = onChange("board", () => pageCache.clear(showsBoard));
  server.on("close", stopBoardPurge);
  app.use(pageCache.middleware);

  const loadContext = (res: express.Response): AppContext => ({
    db: database.db,
    env,
    cspNonce: res.locals.cspNonce as string,
    log: res.locals.log as Logger,
    requestId: res.locals.requestId as string,
    setCookie: (cookie) => void res.append("set-cookie", cookie),
  });
  // The hottest read APIs are answered straight from Express (server/json-api.ts).
  app.use(jsonApi({ siteOrigin: siteOrigin.origin, context: loadContext }));
  app.use(
    createRequestHandler({
      build,
      mode: env.nodeEnv === "development" ? "development" : "production",
      // React Router 8 hands loaders a RouterContextProvider (middleware always on); ours
      // carries the load context's fields (app/lib/context.ts).
      // A page's document (not a client navigation's `.data`) carries stored HTML as markup only (lib/stored-html.tsx).
      getLoadContext: (req, res) => Object.assign(new RouterContextProvider(), loadContext(res), req.path.endsWith(".data") ? {} : { documentHtml: new Map<string, string>() }),
    }),
  );

  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const requestLog = (res.locals.log as Logger | undefined) ?? log;
    // The client's fault (a body parser's unsupported charset, an aborted upload): its own status, not a 500.
    const clientStatus = clientErrorStatus(err);
    if (clientStatus) {
      requestLog.info("request refused", { method: req.method, path: req.path, status: clientStatus, reason: (err as { type?: unknown }).type ?? errorFields(err).error });
      if (!res.headersSent) answerClientError(req, res, clientStatus);
      return;
    }
    requestLog.error("unhandled error", { method: req.method, path: req.path, ...errorFields(err) });
    if (!res.headersSent) sendRefusal(req, res, new HttpError("internal"));
  });

  return { server, io, realtime, analytics, metrics };
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
