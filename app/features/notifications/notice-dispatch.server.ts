import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { startSweep } from "#app/lib/sweep.server.ts";
import { z } from "#app/lib/zod.ts";
import { defineDeliveryKind, deliverHere, wakeDeliveryWorkers } from "#app/features/outbox/outbox.server.ts";

/**
 * How a written notification reaches its channels (features/push: the open tabs, push, mail).
 * Every notification but a chat message's queues a `notify` outbox row in the statement that
 * writes it. A chat message's notification is its own outbox entry instead (docs/decisions/048):
 * the message's statement only bumps the room's unread notification (`count`), and
 * `dispatched_count` says how far its channels were told. A process that delivers notifications
 * (the `notify` handler is registered in it: every instance) runs that handler itself right after
 * the commit and then records how far it got; a sweep on every instance hands a notification
 * nobody told within a minute (its instance died in between, or the handler failed) to the outbox
 * as a `notify` row, which the outbox retries like any other. A process that delivers nothing (a
 * script) queues the row in the message's statement, as before.
 */

/** The outbox kind of "a notification was written or bumped": payload {id, n} (n = its count then). */
export const NOTICE_DELIVERY = defineDeliveryKind("notify", z.object({ id: z.string(), n: z.number().int() }));

/** The insert that queues one `notify` delivery per row of `written` (id, count). */
export const announce = (written: string): SQL =>
  sql`insert into delivery_outbox (kind, payload, dedupe_key)
      select ${NOTICE_DELIVERY.name}, jsonb_build_object('id', w.id, 'n', w.count), 'notify:' || w.id || ':' || w.count from ${sql.raw(written)} w
      on conflict do nothing
      returning id`;

/** A message notification not told to its channels this long after its latest bump is handed to the outbox. */
export const UNDISPATCHED_AFTER_SECONDS = 60;
const SWEEP_EVERY_MS = 30_000;
/** Notifications told at once, at most (each is a couple of queries on the deliveries' pool). */
const CONCURRENCY = 8;
/**
 * A bump is told this long after it committed: a partner's next lines (a chat comes in bursts)
 * are told with it, once, and the mail and the push say how many messages wait.
 */
export const TELL_AFTER_MS = 100;
/**
 * What was told is recorded this long after the first tell not yet recorded: one statement for
 * the notifications told meanwhile (at 500 messages a second, about a hundred), where recording
 * each as it was told cost a statement and a row version per message. Nothing waits on it: the
 * sweep looks only at notifications a minute behind.
 */
const RECORD_AFTER_MS = 250;

type Dispatcher = {
  written(id: string, n: number): void;
  stop(): Promise<void>;
};

let here: Dispatcher | null = null;

/** Whether this process tells a chat message's notification to its channels itself, after the commit. */
export function dispatchesHere(): boolean {
  return here !== null;
}

/** A chat message's notification was written or bumped to count `n` and committed. */
export function messageNoticeWritten(id: string, n: number): void {
  if (here) here.written(id, n);
  else wakeDeliveryWorkers();
}

/**
 * Makes this process tell chat messages' notifications to their channels itself (called where the
 * `notify` handler is registered, with that handler's database): TELL_AFTER_MS after a bump, at
 * most CONCURRENCY at a time; the bumps of one notification waiting together are told once, at
 * the latest count (the handler drops an earlier count anyway). Answers stop(): nothing more is
 * taken, the runs under way finish, and what waits is handed to the outbox.
 */
export function dispatchMessageNoticesHere(db: Db, log?: Logger): { stop(): Promise<void> } {
  // Notification id → the latest count to tell and when it is due (the first bump's time plus
  // TELL_AFTER_MS): in the order of that time.
  const waiting = new Map<string, { n: number; due: number }>();
  let timer: NodeJS.Timeout | null = null;
  const told = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let marking: Promise<void> | null = null;
  let recordTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  // One statement for every notification told while the previous one ran: at the pace of the
  // chat this is a fraction of a statement per message.
  const markTold = async () => {
    while (told.size) {
      // One row per notification (an update joined to two would take either count).
      const batch = [...told].map(([id, n]) => ({ id, n }));
      told.clear();
      try {
        await db.execute(
          sql`update notifications n set dispatched_count = v.n
              from (values ${sql.join(batch.map((t) => sql`(${t.id}::uuid, ${t.n}::int)`), sql`, `)}) as v(id, n)
              where n.id = v.id and n.dispatched_count < v.n`,
        );
      } catch (err) {
        // The sweep tells them again: a repeat, which every channel folds (decision 029).
        log?.warn("message notices told but not recorded", { count: batch.length, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };

  // A tell finished after markTold's last look but before it settled finds `marking` still set:
  // it is recorded by the run started when that one settles. RECORD_AFTER_MS gathers the tells
  // of that time into one statement; a stopping dispatcher records at once.
  const markNow = () => {
    if (recordTimer) {
      clearTimeout(recordTimer);
      recordTimer = null;
    }
    marking ??= markTold().finally(() => {
      marking = null;
      if (told.size) record();
    });
  };
  const record = () => {
    if (stopped) markNow();
    else if (!marking && !recordTimer) recordTimer = setTimeout(markNow, RECORD_AFTER_MS);
  };

  const tell = async (id: string, n: number) => {
    try {
      await deliverHere(NOTICE_DELIVERY, { id, n });
      if ((told.get(id) ?? 0) < n) told.set(id, n);
      record();
    } catch (err) {
      // Left as it is: the sweep hands it to the outbox, which retries it with backoff.
      log?.warn("message notice not told; the outbox takes it over", { id, error: err instanceof Error ? err.message : String(err) });
    }
  };

  const pump = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    while (!stopped && running.size < CONCURRENCY && waiting.size) {
      const [id, next] = waiting.entries().next().value as [string, { n: number; due: number }];
      const wait = next.due - Date.now();
      if (wait > 0) {
        timer = setTimeout(pump, wait);
        return;
      }
      waiting.delete(id);
      const run: Promise<void> = tell(id, next.n).finally(() => {
        running.delete(run);
        pump();
      });
      running.add(run);
    }
  };

  const dispatcher: Dispatcher = {
    written(id, n) {
      const known = waiting.get(id);
      if (known) known.n = Math.max(known.n, n);
      else waiting.set(id, { n, due: Date.now() + TELL_AFTER_MS });
      if (!timer && running.size < CONCURRENCY) pump();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (here === dispatcher) here = null;
      while (running.size) await Promise.allSettled([...running]);
      if (told.size) markNow();
      while (marking) await marking;
      const left = [...waiting.keys()];
      waiting.clear();
      if (left.length) {
        try {
          await handOverUndispatched(db, { ids: left });
        } catch (err) {
          log?.warn("message notices not handed to the outbox; the sweep of another instance does it", { count: left.length, error: err instanceof Error ? err.message : String(err) });
        }
      }
    },
  };
  here = dispatcher;
  return dispatcher;
}

/**
 * Hands message notifications whose channels were not told of their latest count to the outbox
 * (a `notify` row at that count) and records them as told, in one statement: those left
 * UNDISPATCHED_AFTER_SECONDS since their latest bump (the sweep), or the given ones (a process
 * that stops). Rows another transaction holds are left for the next sweep. Answers how many.
 */
export async function handOverUndispatched(db: Queryable, options: { ids?: readonly string[]; limit?: number } = {}): Promise<number> {
  const which = options.ids
    ? sql`n.id in (${sql.join(options.ids.map((id) => sql`${id}::uuid`), sql`, `)})`
    : sql`n.updated_at < now() - make_interval(secs => ${UNDISPATCHED_AFTER_SECONDS})`;
  // Unread ones only (a read notification is pushed and mailed to nobody), through the partial
  // index of the unread room notifications.
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`with due as (
          select n.id from notifications n
          where n.kind = 'message' and n.read_at is null and n.dispatched_count < n.count and ${which}
          order by n.updated_at
          limit ${options.limit ?? 500}
          for update skip locked
        ),
        handed as (
          update notifications n set dispatched_count = n.count from due where n.id = due.id returning n.id, n.count
        )
        ${announce("handed")}`,
  );
  if (rows.length) wakeDeliveryWorkers();
  return rows.length;
}

/** The sweep's timer (every instance; each notification is handed over once, whoever sweeps first). */
export function sweepUndispatchedNotices(db: Db, log: Logger): { stop(): void } {
  return startSweep({
    run: () => handOverUndispatched(db),
    firstAfterMs: SWEEP_EVERY_MS / 2,
    everyMs: SWEEP_EVERY_MS,
    log,
    did: "message notices nobody told were handed to the outbox",
    failed: "the sweep of untold message notices failed",
  });
}
