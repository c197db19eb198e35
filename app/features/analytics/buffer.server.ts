import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import type { analyticsEvents } from "#app/db/schema/index.ts";

export type EventRow = typeof analyticsEvents.$inferInsert;

export type EventBufferStats = {
  buffered: number;
  /** What the queued rows hold (rowBytes of each): at most MAX_BUFFER_BYTES; the batch being written is not counted. */
  bufferedBytes: number;
  written: number;
  dropped: number;
  failedBatches: number;
  lastFlushAt: string | null;
};

export type EventBuffer = {
  /** Queues a row; false (and counted as dropped) when the buffer is full, by rows or by bytes. */
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
  /** Bytes held at most (default MAX_BUFFER_BYTES); past it new rows are dropped and counted. */
  maxBytes?: number;
  /** How often the queue is written. */
  flushMs: number;
  /** Rows per INSERT (default 500). */
  batchSize?: number;
  /** Bytes per INSERT at most (default MAX_BATCH_BYTES); a single larger row goes alone. */
  batchBytes?: number;
  onError?: (error: unknown, rows: number) => void;
};

/**
 * What the buffer holds at most, whatever the rows are. A row is kept as the JSON text it is
 * written as and costs rowBytes: a page view with a referrer, as most are, is ~260–300
 * characters of Latin-1 (~320–360 bytes), so ANALYTICS_BUFFER_MAX's default 50,000 rows are
 * ~18 MB and its maximum 100,000 ~36 MB, both under the cap. The largest row the endpoint can
 * make (a 300-character path, a 200-character referrer host, three UTM values of 100 emoji:
 * ~1,390 characters of UTF-16) costs ~2.8 KB, so a flood of those stops at ~17,700 rows, 48 MB.
 * Kept as the objects the collector makes, that row held ~23 KB of heap (its path a slice that
 * keeps the whole 8 KB percent-encoded path alive, its UTM values built one emoji at a time): a
 * full buffer of 50,000 would have been 1.1 GB, twice the heap `npm start` gives the server.
 * The worst case is then 48 MB queued plus the batch being written (MAX_BATCH_BYTES, and its JSON
 * parameter as much again): under 49 MB.
 */
export const MAX_BUFFER_BYTES = 48 * 1024 * 1024;
/**
 * One INSERT's rows at most: 500 typical rows are ~170 KB, 500 of the largest 1.4 MB. The JSON
 * parameter is copied into the database's memory (PGlite's is the server's, and WebAssembly
 * memory never shrinks). Under `npm run bench:analytics`'s flood, batches of up to 2 MB dropped
 * more rows and raised the peak of external memory (one run: 9,520 rows and 210 MB, against 1,065
 * and 177 MB with these).
 */
export const MAX_BATCH_BYTES = 256 * 1024;
/**
 * V8's string header, the queue's slot and its spare capacity, rounded up: measured, 15,000
 * queued rows took 318 bytes of heap each for 256 characters of JSON, 2,809 for 1,385 of UTF-16.
 */
const ROW_OVERHEAD_BYTES = 64;
/** Any character past Latin-1 makes V8 store the whole string with two bytes a character. */
const TWO_BYTE = /[\u0100-\uffff]/;

/** The heap a queued row costs: its JSON text (one or two bytes a character) and its slot. */
function rowBytes(json: string): number {
  return ROW_OVERHEAD_BYTES + json.length * (TWO_BYTE.test(json) ? 2 : 1);
}

/**
 * Page views are buffered in memory and written in batches, so the collection endpoint answers
 * at once and the database sees one insert per few seconds instead of one per hit. Rows the
 * database refuses are counted as dropped: analytics never holds back the site. A row is queued
 * as its JSON text, made when it arrives: the row's own strings (slices and joins of the hit,
 * which keep the whole hit alive) are let go at once, and the queue's size is known in bytes.
 */
export function createEventBuffer(db: Db, options: EventBufferOptions): EventBuffer {
  const batchSize = options.batchSize ?? 500;
  const batchBytes = options.batchBytes ?? MAX_BATCH_BYTES;
  const maxBytes = options.maxBytes ?? MAX_BUFFER_BYTES;
  let queue: string[] = [];
  let queueBytes = 0;
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
  const writeBatch = async (batch: string[]): Promise<{ lost: number; error?: unknown }> => {
    let splits = MAX_SPLITS;
    let lost = 0;
    let firstError: unknown;
    const write = async (rows: string[]): Promise<void> => {
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

  /** The next batch off the queue: batchSize rows at most, and batchBytes unless its first row alone is more. */
  const takeBatch = (): string[] => {
    let end = 0;
    let bytes = 0;
    while (end < queue.length && end < batchSize) {
      const size = rowBytes(queue[end]);
      if (end > 0 && bytes + size > batchBytes) break;
      bytes += size;
      end++;
    }
    const batch = queue.slice(0, end);
    queue = queue.slice(end);
    queueBytes -= bytes;
    return batch;
  };

  const writeAll = async () => {
    while (queue.length) {
      const { lost, error } = await writeBatch(takeBatch());
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
      const json = serialiseRow(row);
      const size = rowBytes(json);
      if (queueBytes + size > maxBytes) {
        dropped++;
        return false;
      }
      queue.push(json);
      queueBytes += size;
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ buffered: queue.length, bufferedBytes: queueBytes, written, dropped, failedBatches, lastFlushAt }),
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

/** A row as the JSON record json_populate_recordset reads (see insertRows). */
function serialiseRow(row: EventRow): string {
  const record: Record<string, unknown> = {};
  for (const [name, pick] of COLUMNS) {
    const value = pick(row);
    if (value !== undefined && value !== null) record[name] = typeof value === "string" ? cleanText(value) : value;
  }
  // A row without a time is written with the time it arrived, as the column's default would.
  record.ts ??= new Date().toISOString();
  return JSON.stringify(record);
}

/**
 * One INSERT per batch from a single JSON parameter (json_populate_recordset): the rows are
 * already JSON (serialiseRow, native JSON.stringify) and the driver sends one string, where a
 * many-row VALUES list through the query builder (or one array parameter per column, escaped
 * element by element) held the event loop for milliseconds per batch at a few thousand hits a
 * second, which showed in the p99 of every request.
 */
async function insertRows(db: Db, rows: string[]): Promise<void> {
  await db.execute(
    sql`insert into analytics_events (${sql.raw(COLUMN_LIST)})
        select ${sql.raw(COLUMN_LIST)} from json_populate_recordset(null::analytics_events, ${`[${rows.join(",")}]`}::json)`,
  );
}
