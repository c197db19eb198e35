import type { Db } from "#app/db/client.server.ts";
import type { EventBuffer } from "./buffer.server";
import type { Collector } from "./collect.server";
import { runRollups } from "./rollup.server";

/**
 * This process's collection pipeline, registered by the server at start (server/analytics.ts), so
 * the admin's health panel and its 今すぐ集計 button reach the same buffer the endpoint fills.
 * Tools and tests that run services without a server have none.
 */
export type AnalyticsPipeline = { buffer: EventBuffer; collector: Collector; startedAt: string; lastRollupAt: () => string | null };

let current: AnalyticsPipeline | null = null;

export function registerPipeline(pipeline: AnalyticsPipeline | null): void {
  current = pipeline;
}

export function currentPipeline(): AnalyticsPipeline | null {
  return current;
}

/** Writes what this instance has buffered, then recomputes today (and finalises past days). */
export async function refreshNow(db: Db): Promise<void> {
  await current?.buffer.flush();
  await runRollups(db);
}

/** What the server measures beside analytics (server/metrics.ts): shown in the same health panel. */
export type OperationsFigures = { socketsConnected: number; requests: number; slowRequests: number };
let operations: (() => OperationsFigures) | null = null;

export function registerOperationsFigures(source: (() => OperationsFigures) | null): void {
  operations = source;
}

export function operationsFigures(): OperationsFigures | null {
  return operations?.() ?? null;
}
