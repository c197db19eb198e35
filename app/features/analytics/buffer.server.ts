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

/** [column, value of a row] of every column the buffer writes. */
const COLUMNS: [string, (row: EventRow) => unknown][] = [
  ["ts", (r) => (r.ts instanceof Date ? r.ts.toISOString() : r.ts)],
  ["kind", (r) => r.kind],
  // JSON has no 64-bit integers: the hash goes as a string, read back as bigint.
  ["visitor", (r) => (r.visitor === undefined || r.visitor === null ? null : String(r.visitor))],
  ["path", (r) => r.path],
  ["page_kind", (r) => r.pageKind],
  ["referrer_host", (r) => r.referrerHost],
  ["channel", (r) => r.channel],
  ["utm_source", (r) => r.utmSource],
  ["utm_medium", (r) => r.utmMedium],
  ["utm_campaign", (r) => r.utmCampaign],
  ["browser", (r) => r.browser],
  ["os", (r) => r.os],
  ["device", (r) => r.device],
  ["screen", (r) => r.screen],
  ["lang", (r) => r.lang],
  ["engaged_ms", (r) => r.engagedMs],
  ["offer_id", (r) => r.offerId],
  ["room_id", (r) => r.roomId],
  ["user_id", (r) => r.userId],
];
const COLUMN_LIST = COLUMNS.map(([name]) => name).join(", ");

/**
 * One INSERT per batch from a single JSON parameter (json_populate_recordset): JSON.stringify is
 * native and the driver sends one string, where a many-row VALUES list through the query builder
 * (or one array parameter per column, escaped element by element) held the event loop for
 * milliseconds per batch at a few thousand hits a second, which showed in the p99 of every request.
 */
async function insertRows(db: Db, rows: EventRow[]): Promise<void> {
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [name, pick] of COLUMNS) {
      const value = pick(row);
      if (value !== undefined && value !== null) record[name] = value;
    }
    // A row without a time is written now, as the column's default would.
    record.ts ??= new Date().toISOString();
    return record;
  });
  await db.execute(
    sql`insert into analytics_events (${sql.raw(COLUMN_LIST)})
        select ${sql.raw(COLUMN_LIST)} from json_populate_recordset(null::analytics_events, ${JSON.stringify(records)}::json)`,
  );
}
