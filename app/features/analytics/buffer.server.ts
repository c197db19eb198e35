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
 * at once and the database sees one insert per few seconds instead of one per hit. Rows the
 * database refuses are counted as dropped: analytics never holds back the site.
 */
export function createEventBuffer(db: Db, options: EventBufferOptions): EventBuffer {
  const batchSize = options.batchSize ?? 500;
  let queue: EventRow[] = [];
  let written = 0;
  let dropped = 0;
  let failedBatches = 0;
  let lastFlushAt: string | null = null;
  let flushing: Promise<void> | null = null;

  /**
   * Writes a batch; when the database refuses it, the batch is retried in halves so a row it cannot
   * take loses only itself. The halving is bounded (MAX_SPLITS per batch): past it, what still fails
   * is dropped whole. Returns how many rows were lost and the first error.
   */
  const writeBatch = async (batch: EventRow[]): Promise<{ lost: number; error?: unknown }> => {
    let splits = MAX_SPLITS;
    let lost = 0;
    let firstError: unknown;
    const write = async (rows: EventRow[]): Promise<void> => {
      try {
        await insertRows(db, rows);
        written += rows.length;
      } catch (error) {
        firstError ??= error;
        if (rows.length === 1 || splits <= 0) {
          lost += rows.length;
          return;
        }
        splits--;
        const half = Math.ceil(rows.length / 2);
        await write(rows.slice(0, half));
        await write(rows.slice(half));
      }
    };
    await write(batch);
    return { lost, error: firstError };
  };

  const writeAll = async () => {
    while (queue.length) {
      const batch = queue.slice(0, batchSize);
      queue = queue.slice(batch.length);
      const { lost, error } = await writeBatch(batch);
      if (lost) {
        dropped += lost;
        failedBatches++;
        options.onError?.(error, lost);
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

/** Halvings of one refused batch at most: enough to single out a few bad rows of a 500-row batch (9 levels each). */
const MAX_SPLITS = 32;

/**
 * A short description of a failed write for the log: the driver's own message (the query error's
 * cause) rather than the query error's, which carries the whole JSON parameter.
 */
export function batchErrorMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/**
 * Text as the database takes it: PostgreSQL text cannot hold NUL, and JSON with a lone surrogate
 * (half an emoji) is refused outright, which would lose the whole batch.
 */
function cleanText(value: string): string {
  return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value).toWellFormed();
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
      if (value !== undefined && value !== null) record[name] = typeof value === "string" ? cleanText(value) : value;
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
