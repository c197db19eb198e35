import { createServer, type Server } from "node:http";
import type express from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ServerBuild } from "react-router";
import type { Server as SocketServer } from "socket.io";
import { healthFigures } from "../app/features/analytics/health.server";
import { registerOperationsFigures } from "../app/features/analytics/pipeline.server";
import type { Env } from "../app/lib/env.server";
import type { Logger } from "../app/lib/logger.server";
import { pagePathOf } from "../app/lib/data-url";

/**
 * Prometheus metrics (prom-client) on their own port, METRICS_PORT, bound to METRICS_HOST
 * (loopback unless set): a scraper inside the network reads them, the public never does. The
 * admin's health panel shows the same figures. There is no server-side outbox in the code base
 * (chat retries live in the browser), so there is no outbox metric.
 */
export type Metrics = {
  /** Times every request (mount first). */
  middleware: express.RequestHandler;
  /** Counts this Socket.IO server's clients and opens the metrics port when METRICS_PORT is set. */
  start(io: SocketServer): Promise<void>;
  close(): Promise<void>;
  registry: Registry;
  port(): number | null;
};

export function createMetrics(options: { env: Env; build: ServerBuild; log: Logger }): Metrics {
  const { env, build, log } = options;
  let io: SocketServer | null = null;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const routeOf = routeMatcher(build);
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by route pattern and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests by status class", labelNames: ["status_class"], registers: [registry] });
  let total = 0;
  let slow = 0;
  new Gauge({ name: "socketio_connected_sockets", help: "Socket.IO clients connected to this instance", registers: [registry], collect() { this.set(io?.engine.clientsCount ?? 0); } });
  new Gauge({ name: "analytics_buffered_rows", help: "Analytics rows waiting in memory", registers: [registry], collect() { this.set(healthFigures().buffered); } });
  new Gauge({ name: "analytics_dropped_rows_total", help: "Analytics rows dropped (buffer full or batch refused) since start", registers: [registry], collect() { this.set(healthFigures().dropped); } });
  new Gauge({ name: "analytics_written_rows_total", help: "Analytics rows written since start", registers: [registry], collect() { this.set(healthFigures().written); } });
  registerOperationsFigures(() => ({ socketsConnected: io?.engine.clientsCount ?? 0, requests: total, slowRequests: slow }));

  const middleware: express.RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on("finish", () => {
      const seconds = end({ method: req.method, route: routeOf(req.path), status: String(res.statusCode) });
      requests.inc({ status_class: `${Math.floor(res.statusCode / 100)}xx` });
      total++;
      if (seconds > 1) slow++;
    });
    next();
  };

  let server: Server | null = null;
  return {
    middleware,
    registry,
    async start(socketServer) {
      io = socketServer;
      if (!env.metrics) return;
      const metricsServer = createServer((req, res) => {
        if (req.url !== "/metrics") return void res.writeHead(404).end();
        registry.metrics().then(
          (body) => res.writeHead(200, { "Content-Type": registry.contentType }).end(body),
          () => res.writeHead(500).end(),
        );
      });
      const { port, host } = env.metrics;
      await new Promise<void>((resolve, reject) => {
        metricsServer.once("error", reject);
        metricsServer.listen(port, host, () => resolve());
      });
      server = metricsServer;
      log.info("metrics listening", { url: `http://${host}:${port}/metrics` });
    },
    port() {
      const address = server?.address();
      return typeof address === "object" && address ? address.port : null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        registerOperationsFigures(null);
        if (server) server.close(() => resolve());
        else resolve();
      }),
  };
}

/**
 * The route pattern of a path, so the histogram has one series per route, not per URL: the
 * app's routes (routes.ts, from the build), then the paths Express answers itself.
 */
export function routeMatcher(build: Pick<ServerBuild, "routes">): (path: string) => string {
  const patterns = Object.values(build.routes)
    .map((route) => route?.path)
    .filter((p): p is string => typeof p === "string" && p !== "*")
    .map((p) => {
      const source = p
        .split("/")
        .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("/");
      return { pattern: `/${p}`, re: new RegExp(`^/${source}/?$`), dynamic: (p.match(/:/g) ?? []).length };
    })
    .sort((a, b) => a.dynamic - b.dynamic);
  return (path) => {
    if (path === "/") return "/";
    if (path.startsWith("/assets/")) return "/assets/*";
    if (path.startsWith("/uploads/")) return "/uploads/*";
    if (path.startsWith("/api/auth/")) return "/api/auth/*";
    if (path.startsWith("/socket.io/")) return "/socket.io/*";
    if (path === "/healthz" || path === "/api/event") return path;
    const page = pagePathOf(path);
    const bare = page.length > 1 && page.endsWith("/") ? page.slice(0, -1) : page;
    return patterns.find((p) => p.re.test(bare))?.pattern ?? "other";
  };
}
