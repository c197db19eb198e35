import type { HealthFigures } from "./dashboard.server";
import { deliveryOutcomes } from "#app/features/outbox/outbox.server.ts";
import { currentPipeline, operationsFigures } from "./pipeline.server";

/** This instance's collection figures (the admin health panel and the Prometheus metrics read the same). */
export function healthFigures(): HealthFigures {
  const pipeline = currentPipeline();
  const operations = operationsFigures();
  if (!pipeline) return { running: false, buffered: 0, written: 0, dropped: 0, failedBatches: 0, lastFlushAt: null, lastRollupAt: null, collected: {}, operations, deliveries: deliveryOutcomes() };
  const stats = pipeline.buffer.stats();
  return { running: true, ...stats, lastRollupAt: pipeline.lastRollupAt(), collected: pipeline.collector.counts(), operations, deliveries: deliveryOutcomes() };
}
