import type { Db } from "../../db/client.server";
import { analyticsEvents } from "../../db/schema/index";

export type EventRow = typeof analyticsEvents.$inferInsert;

export type EventBufferStats = { buffered: number; written: number; dropped: number; failedBatches: number; lastFlushAt: string | null };

export type EventBuffer = {
  /** Queues a row; false (and counted as dropped) when the buffer is full. */
  push(row: EventRow): boolean;
  /** Writes what is queued now, in batches. */
  flush(): Promise<void>;
  /** Stops the timer and writes everything still queued (shutdown). */
  close(): Promise<void>;
  stats(): EventBufferStats;
};

export type EventBufferOptions = {
  /** Rows held at most; past it new rows are dropped and counted (memory stays bounded under a flood). */
  maxRows: number;
  /** How often the queue is written. */
  flushMs: number;
  /** Rows per INSERT. */
  batchSize?: number;
  onError?: (error: unknown, rows: number) => void;
};

/**
 * Page views are buffered in memory and written in batches, so the collection endpoint answers
 * at once and the database sees one insert per few seconds instead of one per hit. A failed batch
 * is counted as dropped: analytics never holds back the site.
 */
export function createEventBuffer(db: Db, options: EventBufferOptions): EventBuffer {
  const batchSize = options.batchSize ?? 500;
  let queue: EventRow[] = [];
  let written = 0;
  let dropped = 0;
  let failedBatches = 0;
  let lastFlushAt: string | null = null;
  let flushing: Promise<void> | null = null;

  const writeAll = async () => {
    while (queue.length) {
      const batch = queue.slice(0, batchSize);
      queue = queue.slice(batch.length);
      try {
        await db.insert(analyticsEvents).values(batch);
        written += batch.length;
      } catch (error) {
        dropped += batch.length;
        failedBatches++;
        options.onError?.(error, batch.length);
      }
    }
    lastFlushAt = new Date().toISOString();
  };
  const flush = () => {
    // One flush at a time; a caller arriving meanwhile waits for it and then writes what is left.
    flushing = (flushing ?? Promise.resolve()).then(writeAll).finally(() => {
      flushing = null;
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref();

  return {
    push(row) {
      if (queue.length >= options.maxRows) {
        dropped++;
        return false;
      }
      queue.push(row);
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ buffered: queue.length, written, dropped, failedBatches, lastFlushAt }),
  };
}
