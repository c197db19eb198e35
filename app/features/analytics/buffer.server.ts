import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import type { analyticsEvents } from "../../db/schema/index";

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
  /** Rows per INSERT (default 500). */
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
        await insertRows(db, batch);
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

/** [column, SQL array type, value of a row] of every column the buffer writes. */
const COLUMNS: [string, string, (row: EventRow) => unknown][] = [
  ["ts", "timestamptz", (r) => (r.ts instanceof Date ? r.ts.toISOString() : (r.ts ?? new Date().toISOString()))],
  ["kind", "text", (r) => r.kind],
  ["visitor", "bigint", (r) => r.visitor],
  ["path", "text", (r) => r.path],
  ["page_kind", "text", (r) => r.pageKind],
  ["referrer_host", "text", (r) => r.referrerHost],
  ["channel", "text", (r) => r.channel],
  ["utm_source", "text", (r) => r.utmSource],
  ["utm_medium", "text", (r) => r.utmMedium],
  ["utm_campaign", "text", (r) => r.utmCampaign],
  ["browser", "text", (r) => r.browser],
  ["os", "text", (r) => r.os],
  ["device", "text", (r) => r.device],
  ["screen", "text", (r) => r.screen],
  ["lang", "text", (r) => r.lang],
  ["engaged_ms", "integer", (r) => r.engagedMs],
  ["offer_id", "uuid", (r) => r.offerId],
  ["room_id", "uuid", (r) => r.roomId],
  ["user_id", "text", (r) => r.userId],
];

/**
 * One INSERT … SELECT FROM unnest(…) per batch: a parameter per column (an array of the batch's
 * values, as text), not one per cell. Building a many-row VALUES list through the query builder
 * held the event loop for tens of milliseconds per batch at a few thousand hits a second, which
 * showed in the collection endpoint's p99.
 */
async function insertRows(db: Db, rows: EventRow[]): Promise<void> {
  const arrays = COLUMNS.map(([, type, pick]) => {
    const values = rows.map((row) => {
      const v = pick(row);
      return v === undefined || v === null ? null : String(v);
    });
    return sql`${sql.param(values)}::${sql.raw(type)}[]`;
  });
  await db.execute(
    sql`insert into analytics_events (${sql.raw(COLUMNS.map(([name]) => name).join(", "))})
        select * from unnest(${sql.join(arrays, sql`, `)})`,
  );
}
