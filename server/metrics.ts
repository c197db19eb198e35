import { createServer, type Server } from "node:http";
import type express from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ServerBuild } from "react-router";
import type { Server as SocketServer } from "socket.io";
import { healthFigures } from "#app/features/analytics/health.server.ts";
import { currentPipeline, registerOperationsFigures } from "#app/features/analytics/pipeline.server.ts";
import type { Queryable } from "#app/db/sql.server.ts";
import { outboxFigures, type OutboxFigures } from "#app/features/outbox/outbox-figures.server.ts";
import { deliveryOutcomes } from "#app/features/outbox/outbox.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { pagePathOf } from "#app/lib/data-url.ts";

/**
 * Prometheus metrics (prom-client) on their own port, METRICS_PORT, bound to METRICS_HOST
 * (loopback unless set): a scraper inside the network reads them, the public never does. The
 * admin's health panel shows the same figures. The outbox (features/outbox) is read from the
 * database at each scrape: its lag (how long the oldest due row has waited), what waits, what is
 * retried and what failed in the last day, the same for every instance; deliveries by outcome are
 * this process's own.
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

export function createMetrics(options: { env: Env; build: ServerBuild; log: Logger; db?: Queryable }): Metrics {
  const { env, build, log, db } = options;
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
  new Gauge({ name: "analytics_buffered_bytes", help: "Heap the analytics rows waiting in memory hold (bounded by the buffer's byte cap)", registers: [registry], collect() { this.set(currentPipeline()?.buffer.stats().bufferedBytes ?? 0); } });
  new Gauge({ name: "analytics_dropped_rows_total", help: "Analytics rows dropped (buffer full or batch refused) since start", registers: [registry], collect() { this.set(healthFigures().dropped); } });
  new Gauge({ name: "analytics_written_rows_total", help: "Analytics rows written since start", registers: [registry], collect() { this.set(healthFigures().written); } });
  if (db) {
    // One query per scrape for the four outbox gauges (each gauge's collect asks within the second).
    let read: { at: number; figures: Promise<OutboxFigures | null> } | null = null;
    const outbox = () => {
      if (!read || Date.now() - read.at > 1000) {
        read = {
          at: Date.now(),
          figures: outboxFigures(db).catch((error: unknown) => {
            log.warn("outbox figures not read", { error: error instanceof Error ? error.message : String(error) });
            return null;
          }),
        };
      }
      return read.figures;
    };
    const outboxGauge = (name: string, help: string, pick: (f: OutboxFigures) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const figures = await outbox();
          if (figures) this.set(pick(figures));
        },
      });
    outboxGauge("outbox_lag_seconds", "Seconds the oldest due outbox row has waited past its time (0 when none is due)", (f) => f.lagS);
    outboxGauge("outbox_pending_rows", "Outbox rows waiting to be delivered (due now or later)", (f) => f.pending);
    outboxGauge("outbox_retrying_rows", "Pending outbox rows whose last attempt failed", (f) => f.retrying);
    outboxGauge("outbox_failed_rows_last_day", "Outbox rows given up in the last 24 hours", (f) => f.failedLastDay);
  }
  new Gauge({
    name: "outbox_deliveries_total",
    help: "Outbox deliveries of this process since start, by outcome (sent, retried, failed)",
    labelNames: ["outcome"],
    registers: [registry],
    collect() {
      for (const [outcome, n] of Object.entries(deliveryOutcomes())) this.set({ outcome }, n);
    },
  });
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
