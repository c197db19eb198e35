import express from "express";
import type { Database } from "#app/db/client.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { bodyLimitFor } from "#app/lib/body-limits.ts";
import { isSiteOrigin } from "#app/lib/csrf.server.ts";
import { sendRefusal } from "./edge-answer";
import { batchErrorMessage, createEventBuffer } from "#app/features/analytics/buffer.server.ts";
import { createCollector, parseHit } from "#app/features/analytics/collect.server.ts";
import { AnalyticsError } from "#app/features/analytics/errors.ts";
import { applyRetention, ensurePartitions } from "#app/features/analytics/partitions.server.ts";
import { registerPipeline, type AnalyticsPipeline } from "#app/features/analytics/pipeline.server.ts";
import { runRollups } from "#app/features/analytics/rollup.server.ts";
import { memoryLimit } from "#app/lib/rate-limit.server.ts";
import { getViewerFromHeaders, sessionTokenFromCookie } from "#app/features/users/session.server.ts";

/** Where the page script sends its hits (same origin only). */
export const COLLECT_PATH = "/api/event";
/** A hit is a few hundred bytes; nothing bigger is read (app/lib/body-limits.ts). */
const COLLECT_MAX_BYTES = bodyLimitFor(COLLECT_PATH).maxBytes;
const FLUSH_MS = 3_000;
const ROLLUP_MS = 3 * 60_000;
const MAINTENANCE_MS = 60 * 60_000;

export type Analytics = AnalyticsPipeline & { close(): Promise<void> };

/**
 * The collection endpoint and the jobs behind it (docs/decisions/020): hits are checked (origin,
 * rate, shape) and answered 204 at once; counting happens after the answer, into the bounded
 * buffer; the buffer is written every few seconds, rollups run every few minutes, partitions and
 * retention every hour. close() writes what is still buffered (shutdown).
 */
export function attachAnalytics(
  app: express.Express,
  options: { env: Env; database: Database; log: Logger; /** Run before the body is read (the site's body limit). */ guards?: express.RequestHandler[] },
): Analytics {
  const { env, database, log } = options;
  const db = database.db;
  const site = new URL(env.siteUrl);
  const buffer = createEventBuffer(db, {
    maxRows: env.analytics.bufferMax,
    flushMs: FLUSH_MS,
    onError: (error, rows) => log.error("analytics rows not written", { rows, error: batchErrorMessage(error) }),
  });
  const collector = createCollector(db, buffer, { host: site.host });
  // Per address, before any work: one instance's memory is enough for a beacon (decision 039).
  const limiter = memoryLimit({ name: "analytics-hit", max: env.analytics.rateLimitPerMinute, window: "minute" });
  let lastRollupAt: string | null = null;

  const refuse = (res: express.Response, req: express.Request, error: AnalyticsError) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    sendRefusal(req, res, error);
  };

  app.post(COLLECT_PATH, ...(options.guards ?? []), express.text({ type: () => true, limit: COLLECT_MAX_BYTES }), async (req, res) => {
    // Browsers always send Origin with a POST from fetch; anything else is not our page script.
    const origin = req.headers.origin;
    if (!origin || !isSiteOrigin(origin, site.origin)) return refuse(res, req, new AnalyticsError("forbidden_origin"));
    const hit = typeof req.body === "string" ? parseHit(req.body) : null;
    if (!hit) return refuse(res, req, new AnalyticsError("invalid"));
    if (!(await limiter.take(req.ip ?? ""))) return refuse(res, req, new AnalyticsError("rate_limited"));
    res.status(204).end();
    const headers = new Headers();
    if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
    collector
      .collect({
        hit,
        ip: req.ip ?? "",
        userAgent: req.headers["user-agent"],
        secChUa: header(req.headers["sec-ch-ua"]),
        acceptLanguage: req.headers["accept-language"],
        gpc: header(req.headers["sec-gpc"]),
        dnt: header(req.headers.dnt),
        viewerId: async () =>
          sessionTokenFromCookie(req.headers.cookie ?? null, env) ? ((await getViewerFromHeaders(headers, db, env))?.id ?? null) : null,
      })
      .catch((error: unknown) => log.error("analytics hit failed", { error: error instanceof Error ? error.message : String(error) }));
  });

  const rollups = async () => {
    try {
      await runRollups(db);
      lastRollupAt = new Date().toISOString();
    } catch (error) {
      log.error("analytics rollup failed", { error: error instanceof Error ? error.message : String(error) });
    }
  };
  const maintenance = async () => {
    try {
      await ensurePartitions(db);
      await applyRetention(db, env.analytics.retentionDays);
    } catch (error) {
      log.error("analytics maintenance failed", { error: error instanceof Error ? error.message : String(error) });
    }
  };
  void maintenance();
  const rollupTimer = setInterval(() => void rollups(), ROLLUP_MS);
  const maintenanceTimer = setInterval(() => void maintenance(), MAINTENANCE_MS);
  rollupTimer.unref();
  maintenanceTimer.unref();

  const pipeline: AnalyticsPipeline = { buffer, collector, startedAt: new Date().toISOString(), lastRollupAt: () => lastRollupAt };
  registerPipeline(pipeline);
  return {
    ...pipeline,
    async close() {
      clearInterval(rollupTimer);
      clearInterval(maintenanceTimer);
      await buffer.close();
      registerPipeline(null);
    },
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
