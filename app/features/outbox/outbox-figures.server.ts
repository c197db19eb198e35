import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";

// The outbox's figures for the metrics and the admin's health panel (the outbox itself: outbox.server.ts).

export type OutboxFigures = {
  /** Rows waiting (due now or later). */
  pending: number;
  /** Rows due now and not yet delivered. */
  due: number;
  /** Seconds the oldest due row has waited past its time (0 when nothing is due): the outbox lag. */
  lagS: number;
  /** Pending rows whose last attempt failed and that wait for a retry. */
  retrying: number;
  /** Rows given up (status failed) in the last 24 hours. */
  failedLastDay: number;
};

/**
 * The outbox as the database holds it, shared by every instance: what waits, how late the oldest
 * due row is, what is being retried and what failed lately. Reads the pending rows (through the due
 * index) and the last day's failed ones (through the failed index), never the day's or week's sent rows.
 */
export async function outboxFigures(db: Queryable): Promise<OutboxFigures> {
  const [r] = await rowsOf<Record<string, string | number | null>>(db, outboxFiguresQuery());
  return {
    pending: Number(r.pending),
    due: Number(r.due),
    lagS: Math.max(0, Number(r.lag_s)),
    retrying: Number(r.retrying),
    failedLastDay: Number(r.failed),
  };
}

/** The query of outboxFigures (its plan is checked by the tests). */
export function outboxFiguresQuery(): SQL {
  return sql`select count(*) filter (where status = 'pending') as pending,
          count(*) filter (where status = 'pending' and run_at <= now()) as due,
          coalesce(extract(epoch from now() - min(run_at) filter (where status = 'pending' and run_at <= now())), 0) as lag_s,
          count(*) filter (where status = 'pending' and last_error is not null) as retrying,
          count(*) filter (where status = 'failed') as failed
        from delivery_outbox
        where status = 'pending' or (status = 'failed' and finished_at > now() - interval '1 day')`;
}
