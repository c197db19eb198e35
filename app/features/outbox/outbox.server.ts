import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { deliveryOutbox } from "#app/db/schema/delivery.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import type { z } from "#app/lib/zod.ts";
import { claimDeliveries, handBackDeliveries, releaseOwnLeases, type ClaimedDelivery } from "#app/features/outbox/outbox-leases.server.ts";

export { claimDeliveries, handBackDeliveries, releaseOwnLeases, type ClaimedDelivery };

/**
 * The one outbox for work delivered after the request (mail now; push and digests too): the
 * request writes a row in its own transaction, a worker delivers it. Rows are claimed with
 * FOR UPDATE SKIP LOCKED and a lease (locked_until), so several instances deliver each row once,
 * and the rows of a worker that died are taken over when its lease runs out, or at once when it
 * starts again under the same id. A row sent just before a crash is sent again, so each delivery
 * is built to be folded with its repeat (a mail's Message-ID, a push's Topic). Decision record:
 * docs/decisions/015-mail-through-a-database-outbox.md.
 */

/** A failure worth trying again later (a busy server, a dropped connection): retried with backoff. */
export class TemporaryDeliveryError extends Error {
  override name = "TemporaryDeliveryError";
}

/** A failure that another attempt cannot fix (a malformed row, a refused message): recorded as failed at once. */
export class PermanentDeliveryError extends Error {
  override name = "PermanentDeliveryError";
}

/** The outbox row a handler delivers: the same `id` and `createdAt` on every try of the row. */
export type DeliveryJob = { id: number; attempt: number; createdAt: Date };
export type DeliveryHandler<P> = (payload: P, job: DeliveryJob) => Promise<void>;

/**
 * One kind of delivery: its name in the outbox's `kind` column and the schema of its payload.
 * Queuing takes the kind, so a payload of the wrong shape does not compile; a handler gets the
 * payload parsed by the schema (a row that breaks it fails for good), so no handler casts.
 */
export type DeliveryKind<P> = { readonly name: string; readonly payload: z.ZodType<P> };

const definedKinds = new Map<string, DeliveryKind<unknown>>();

/** Defines a kind once (at module load); a second definition of one name is a programming error. */
export function defineDeliveryKind<S extends z.ZodType>(name: string, payload: S): DeliveryKind<z.output<S>> {
  if (definedKinds.has(name)) throw new Error(`delivery kind "${name}" is defined twice`);
  const kind: DeliveryKind<z.output<S>> = { name, payload: payload as z.ZodType<z.output<S>> };
  definedKinds.set(name, kind as DeliveryKind<unknown>);
  return kind;
}

/**
 * Start-up's check (app/start-deliveries.server.ts): every kind some module may queue has its
 * handler in this process. Throws naming the kinds nobody handles.
 */
export function assertEveryDeliveryKindHandled(): void {
  const unhandled = [...definedKinds.keys()].filter((name) => !handlers.has(name));
  if (unhandled.length) throw new Error(`delivery kinds without a handler: ${unhandled.join(", ")}`);
}
export type DeliveryHandlerOptions = {
  /**
   * Any error other than a PermanentDeliveryError is retried with backoff (a database blip, a
   * timeout): for handlers whose own failures are only ever transient. Without it, only a
   * TemporaryDeliveryError is retried.
   */
  retryUnexpected?: boolean;
};

const handlers = new Map<string, { run: DeliveryHandler<unknown>; retryUnexpected: boolean }>();
const wakeListeners = new Set<() => void>();

/**
 * Who delivers rows of `kind` in this process; a worker claims only kinds it has a handler for.
 * One handler per kind: registering a second is refused (it would silently replace the first).
 */
export function registerDeliveryHandler<P>(kind: DeliveryKind<P>, handler: DeliveryHandler<P>, options: DeliveryHandlerOptions = {}): void {
  if (handlers.has(kind.name)) throw new Error(`delivery kind "${kind.name}" already has a handler`);
  const run: DeliveryHandler<unknown> = async (raw, job) => {
    const parsed = kind.payload.safeParse(raw);
    if (!parsed.success) throw new PermanentDeliveryError(`malformed ${kind.name} payload`);
    await handler(parsed.data, job);
  };
  handlers.set(kind.name, { run, retryUnexpected: options.retryUnexpected === true });
}

/**
 * Forgets this process's handler of `kind`, as a process that stops and starts again does; for
 * tests that swap a handler's resources (an SMTP server that goes away and comes back).
 */
export function forgetDeliveryHandler(kind: DeliveryKind<unknown>): void {
  handlers.delete(kind.name);
}

/** Whether a handler's failure is retried (within maxAttempts). */
function isTemporary(err: unknown, retryUnexpected: boolean): boolean {
  if (err instanceof TemporaryDeliveryError) return true;
  return retryUnexpected && !(err instanceof PermanentDeliveryError);
}

/**
 * Queues a delivery in the caller's transaction (or on the database): nothing is sent unless that
 * transaction commits. A repeated `dedupeKey` is a no-op: answers whether a row was queued.
 */
export async function enqueueDelivery<P>(
  tx: Queryable,
  kind: DeliveryKind<P>,
  delivery: { payload: P; runAt?: Date; dedupeKey?: string },
): Promise<boolean> {
  const queued = await tx
    .insert(deliveryOutbox)
    .values({
      kind: kind.name,
      payload: delivery.payload ?? null,
      dedupeKey: delivery.dedupeKey ?? null,
      ...(delivery.runAt ? { runAt: delivery.runAt } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: deliveryOutbox.id });
  if (!queued.length) return false;
  // A row due later (a notification's mail check, 10 minutes on) is found by the poll then: waking
  // the workers now would only cost them a claim that finds nothing.
  if (!delivery.runAt || delivery.runAt.getTime() <= Date.now()) wakeDeliveryWorkers();
  return true;
}

/**
 * One pending row per `dedupeKey`, armed again by each later event instead of one row per event
 * (a notification's mail check). With no row yet, a finished one (sent or failed), or one a worker
 * holds now, the row becomes pending at `runAt` with this payload; a held row is taken from its
 * worker (its lease no longer names it, so that worker marks nothing when its run ends; a handler
 * may re-arm its own row this way). A row still waiting for its turn (never claimed, handed back,
 * or waiting to be retried) is left as it is: it runs at its own, earlier time, and its handler
 * sees everything that happened since. Answers whether a row was written.
 */
export async function rearmDelivery<P>(tx: Queryable, kind: DeliveryKind<P>, delivery: { payload: P; runAt: Date; dedupeKey: string }): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`insert into delivery_outbox (kind, payload, dedupe_key, run_at)
        values (${kind.name}, ${JSON.stringify(delivery.payload)}::jsonb, ${delivery.dedupeKey}, ${delivery.runAt.toISOString()}::timestamptz)
        on conflict (dedupe_key) do update set payload = excluded.payload, run_at = excluded.run_at, status = 'pending', attempts = 0,
          locked_until = null, locked_by = null, last_error = null, finished_at = null
        where delivery_outbox.status <> 'pending' or delivery_outbox.locked_until is not null
        returning id`,
  );
  if (!rows.length) return false;
  if (delivery.runAt.getTime() <= Date.now()) wakeDeliveryWorkers();
  return true;
}

/** Whether this process has a handler for `kind`. */
export function deliversHere(kind: DeliveryKind<unknown>): boolean {
  return handlers.has(kind.name);
}

/**
 * Runs this process's handler of `kind` on `payload` now, without an outbox row: for deliveries
 * whose due state is kept elsewhere, so that a failure (thrown here) is retried from there (a chat
 * message's notification records how far it was told: docs/decisions/048).
 */
export async function deliverHere<P>(kind: DeliveryKind<P>, payload: P): Promise<void> {
  const handler = handlers.get(kind.name);
  if (!handler) throw new Error(`no handler for ${kind.name} in this process`);
  await handler.run(payload, { id: 0, attempt: 1, createdAt: new Date() });
}

/**
 * Tells this process's workers that rows were queued (by enqueueDelivery, or by a caller's own
 * insert into delivery_outbox): the row becomes visible when the caller commits, so the worker
 * looks again a few times soon.
 */
export function wakeDeliveryWorkers(): void {
  for (const wake of wakeListeners) wake();
}

/** Deliveries of this process since start, by outcome (the metrics and the admin's health panel). */
const outcomes = { sent: 0, retried: 0, failed: 0 };

export function deliveryOutcomes(): { sent: number; retried: number; failed: number } {
  return { ...outcomes };
}

export type OutboxWorkerOptions = {
  db: Db;
  log?: Logger;
  /**
   * Identifies this worker in locked_by (default: random). It must be unique among live workers;
   * a worker started under an id that still holds leases (its process was killed) takes those rows
   * back at once instead of waiting for the lease (app/start-deliveries.server.ts derives a stable one).
   */
  workerId?: string;
  /** How long a claim holds before another worker may take the row over (default 2 minutes). */
  leaseMs?: number;
  /** Poll interval when nothing wakes the worker (default 1 s). */
  pollMs?: number;
  /** Rows claimed per round (default 50) and delivered at once (default 8). */
  batchSize?: number;
  concurrency?: number;
  /** Attempts before a retried failure is recorded as failed (default 8, about an hour of backoff). */
  maxAttempts?: number;
  /** First retry delay; doubled each attempt, capped at 30 minutes (default 30 s). */
  retryBaseMs?: number;
};

/**
 * stop(): claims nothing more, lets the rows being delivered finish (at most `concurrency`), and
 * hands back every other row it holds (handBackDeliveries) so another instance sends them now
 * rather than when their lease runs out.
 */
export type OutboxWorker = { stop(): Promise<void> };

const MAX_RETRY_DELAY_MS = 30 * 60 * 1000;
// Delivered rows are kept a week (support questions: "did the mail go out?"), failed ones a month;
// then deleted, because a mail's body holds a personal link.
const KEEP_SENT = "7 days";
const KEEP_FAILED = "30 days";
const CLEANUP_EVERY_MS = 60 * 60 * 1000;

/** Delay before attempt `attempt + 1`: retryBaseMs, 2×, 4×, … capped. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
}

/**
 * Delivers due rows of every registered kind until stop(). Polls every `pollMs`, and at once
 * (then a few times shortly after, to catch the enqueuing transaction's commit) when this process
 * enqueues something.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const db = options.db;
  const log = options.log;
  const workerId = options.workerId ?? `w-${randomBytes(6).toString("hex")}`;
  // A random id cannot have rows left over from an earlier life.
  let ownLeasesReleased = options.workerId === undefined;
  const leaseMs = options.leaseMs ?? 120_000;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 50;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 30_000;

  let stopped = false;
  // Set while a round delivers: what stop() calls to hand back the rows not yet started.
  let onStop: (() => void) | null = null;
  let handBackCount = 0;
  let stopping: Promise<void> | null = null;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const soon: NodeJS.Timeout[] = [];
  let lastCleanup = 0;
  // A wake-up during a round: look again right after it.
  let again = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
  };

  /** Handles one row; answers true when it was delivered (the round then marks it sent). */
  async function deliver(row: ClaimedDelivery): Promise<boolean> {
    const handler = handlers.get(row.kind);
    try {
      if (!handler) throw new TemporaryDeliveryError(`no handler for ${row.kind}`);
      await handler.run(row.payload, { id: row.id, attempt: row.attempts, createdAt: row.createdAt });
      return true;
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      const temporary = isTemporary(err, handler?.retryUnexpected ?? false);
      try {
        await recordFailure(row, reason, temporary);
      } catch (error) {
        // The row keeps its lease and is tried again when it runs out.
        log?.warn("outbox: a failed delivery was not recorded", { id: row.id, kind: row.kind, error: error instanceof Error ? error.message : String(error) });
      }
      return false;
    }
  }

  /** Records a failed attempt: due again after a back-off, or given up. */
  async function recordFailure(row: ClaimedDelivery, reason: string, temporary: boolean): Promise<void> {
    if (temporary && row.attempts < maxAttempts) {
      const delay = retryDelayMs(row.attempts, retryBaseMs);
      await db.execute(
        sql`update delivery_outbox
            set run_at = now() + make_interval(secs => ${delay / 1000}), locked_until = null, last_error = ${reason}
            where id = ${row.id} and locked_by = ${workerId} and status = 'pending'`,
      );
      outcomes.retried++;
      log?.warn("outbox: delivery will be retried", { id: row.id, kind: row.kind, attempt: row.attempts, inMs: delay, reason });
    } else {
      await db.execute(
        sql`update delivery_outbox set status = 'failed', finished_at = now(), locked_until = null, last_error = ${reason}
            where id = ${row.id} and locked_by = ${workerId} and status = 'pending'`,
      );
      outcomes.failed++;
      log?.error("outbox: delivery failed", { id: row.id, kind: row.kind, attempt: row.attempts, reason, permanent: !temporary });
    }
  }

  /**
   * Marks delivered rows sent as they finish, in one statement for all that finished while the
   * previous one ran (a chat message's notification is a row: this runs at the pace of the chat),
   * so a row is marked well within its lease even when others of its round take long. Guarded by
   * the lease: a worker whose row was taken over does not overwrite the new claim. Should a mark
   * fail or the worker die first, the rows are delivered again when their lease runs out, as they
   * would be had it died mid-row.
   */
  function sentMarker() {
    let waiting: number[] = [];
    let flushing: Promise<void> | null = null;
    const flush = async () => {
      while (waiting.length) {
        const ids = waiting;
        waiting = [];
        try {
          const marked = await rowsOf<{ id: number }>(
            db,
            sql`update delivery_outbox set status = 'sent', finished_at = now(), locked_until = null, last_error = null
                where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and locked_by = ${workerId} and status = 'pending'
                returning id`,
          );
          outcomes.sent += marked.length;
        } catch (error) {
          log?.warn("outbox: delivered rows not marked sent", { ids, error: error instanceof Error ? error.message : String(error) });
        }
      }
    };
    return {
      add(id: number) {
        waiting.push(id);
        if (!flushing) flushing = flush().finally(() => (flushing = null));
      },
      async done() {
        while (flushing) await flushing;
      },
    };
  }

  async function round(): Promise<number> {
    const claimed = await claimDeliveries(db, { workerId, kinds: [...handlers.keys()], leaseMs, limit: batchSize });
    let next = 0;
    const sent = sentMarker();
    const lanes = Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
      while (!stopped && next < claimed.length) {
        const row = claimed[next++];
        if (await deliver(row)) sent.add(row.id);
      }
    });
    // On stop, the rows no lane has started go back at once, while the started ones finish.
    let handedBack = null as Promise<number> | null;
    const handBackUnstarted = () => {
      const unstarted = claimed.slice(next).map((row) => row.id);
      next = claimed.length;
      handedBack = unstarted.length ? handBackDeliveries(db, workerId, unstarted) : null;
    };
    if (stopped) handBackUnstarted();
    else onStop = handBackUnstarted;
    await Promise.allSettled(lanes);
    onStop = null;
    await sent.done();
    if (handedBack) handBackCount += await handedBack;
    return claimed.length;
  }

  async function cleanup(): Promise<void> {
    if (Date.now() - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = Date.now();
    await db.execute(
      sql`delete from delivery_outbox
          where (status = 'sent' and finished_at < now() - ${KEEP_SENT}::interval)
             or (status = 'failed' and finished_at < now() - ${KEEP_FAILED}::interval)`,
    );
  }

  function tick() {
    timer = null;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = (async () => {
      let full = false;
      try {
        if (!ownLeasesReleased) {
          const released = await releaseOwnLeases(db, workerId);
          ownLeasesReleased = true;
          if (released) log?.info("outbox: rows left in flight by this instance's last run taken back", { workerId, rows: released });
        }
        // A full batch means more are waiting: go on without sleeping.
        full = (await round()) >= batchSize;
        await cleanup();
      } catch (err) {
        if (!stopped) log?.error("outbox: round failed", { error: err instanceof Error ? err.message : String(err) });
      } finally {
        running = null;
        schedule(full || again ? 0 : pollMs);
      }
    })();
  }

  const wake = () => {
    if (stopped) return;
    schedule(0);
    for (const ms of [20, 100, 300]) {
      const t = setTimeout(() => {
        soon.splice(soon.indexOf(t), 1);
        schedule(0);
      }, ms);
      soon.push(t);
    }
  };
  wakeListeners.add(wake);
  schedule(0);

  async function stopWorker(): Promise<void> {
    stopped = true;
    wakeListeners.delete(wake);
    if (timer) clearTimeout(timer);
    for (const t of soon.splice(0)) clearTimeout(t);
    onStop?.();
    await running;
    try {
      // Rows still leased here after the round (a delivered row whose mark failed, a failure not
      // recorded): handed back too, so none waits out its lease.
      handBackCount += await handBackDeliveries(db, workerId);
    } catch (err) {
      log?.warn("outbox: rows not handed back; they wait for their lease", { workerId, error: err instanceof Error ? err.message : String(err) });
    }
    if (handBackCount) log?.info("outbox: rows handed back", { workerId, rows: handBackCount });
  }

  return {
    stop: () => (stopping ??= stopWorker()),
  };
}
