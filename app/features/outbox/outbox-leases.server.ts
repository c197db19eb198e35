// The outbox's rows as a worker holds them (docs/decisions/015): claimed under a lease, handed
// back untried, released when an instance stops. The kinds, queuing and the worker that calls
// these are outbox.server.ts.
import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";

export type ClaimedDelivery = { id: number; kind: string; payload: unknown; attempts: number; createdAt: Date };

/**
 * Claims up to `limit` due rows of `kinds` for `workerId` until now + leaseMs. A row whose lease
 * ran out (its worker died or hung) is due again; each claim counts as an attempt.
 */
export async function claimDeliveries(
  db: Queryable,
  options: { workerId: string; kinds: string[]; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  if (!options.kinds.length) return [];
  const kinds = sql.join(
    options.kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await rowsOf<{ id: string | number; kind: string; payload: unknown; attempts: number; created_ms: string | number }>(
    db,
    sql`with due as (
          select id from delivery_outbox
          where status = 'pending' and run_at <= now() and kind in (${kinds})
            and (locked_until is null or locked_until < now())
          order by run_at, id
          limit ${options.limit}
          for update skip locked
        )
        update delivery_outbox o
        set locked_until = now() + make_interval(secs => ${options.leaseMs / 1000}),
            locked_by = ${options.workerId},
            attempts = o.attempts + 1
        from due where o.id = due.id
        returning o.id, o.kind, o.payload, o.attempts, floor(extract(epoch from o.created_at) * 1000)::float8 as created_ms`,
  );
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, payload: r.payload, attempts: Number(r.attempts), createdAt: new Date(Number(r.created_ms)) }));
}

/**
 * Hands back rows leased to `workerId` (a worker that stops), so any worker may claim them at
 * once: `untried`, rows it claimed and never began (their claim then counts as no attempt), or,
 * without it, every row it still holds. Answers how many were handed back.
 */
export async function handBackDeliveries(db: Queryable, workerId: string, untried?: number[]): Promise<number> {
  if (untried?.length === 0) return 0;
  const rows = await rowsOf<{ id: number }>(
    db,
    untried
      ? sql`update delivery_outbox set locked_until = null, attempts = greatest(attempts - 1, 0)
            where id in (${sql.join(untried.map((id) => sql`${id}`), sql`, `)})
              and status = 'pending' and locked_by = ${workerId} and locked_until >= now()
            returning id`
      : sql`update delivery_outbox set locked_until = null
            where status = 'pending' and locked_by = ${workerId} and locked_until >= now()
            returning id`,
  );
  return rows.length;
}

/**
 * Releases the rows still leased to `workerId`: called when a worker starts under an id it had
 * before (a restarted instance), whose rows were left in flight by its previous, dead life. Only
 * that id's rows: another worker's lease holds until it runs out. Answers how many were released.
 */
export async function releaseOwnLeases(db: Queryable, workerId: string): Promise<number> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`update delivery_outbox set locked_until = null
        where status = 'pending' and locked_by = ${workerId} and locked_until >= now()
        returning id`,
  );
  return rows.length;
}
