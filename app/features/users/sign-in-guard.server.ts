import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { rowsOf } from "../../db/sql.server";

/**
 * Per-account brute-force limit (docs/decisions/016): failed sign-ins for one address are counted
 * across IPs; from the FAILURES_BEFORE_BACKOFF-th in a row the address waits 1 minute, doubling up
 * to MAX_BACKOFF_MINUTES, before the next password is even checked. Never a permanent lock: a
 * stranger can only slow a real user down, and a successful sign-in clears the count. The per-IP
 * limit (AUTH_RATE_LIMIT_MAX) applies on top.
 */
export const FAILURES_BEFORE_BACKOFF = 5;
export const MAX_BACKOFF_MINUTES = 15;

export const signInKey = (email: string) => email.trim().toLowerCase();

/** Minutes the address must still wait, or 0. */
export async function signInWaitMinutes(db: Db, email: string): Promise<number> {
  const [row] = await rowsOf<{ seconds: number | null }>(
    db,
    sql`select extract(epoch from blocked_until - now())::float8 as seconds from sign_in_failures
        where email_key = ${signInKey(email)} and blocked_until > now()`,
  );
  return row?.seconds ? Math.max(1, Math.ceil(Number(row.seconds) / 60)) : 0;
}

/** Counts a failed sign-in; a count older than an hour starts again. */
export async function recordSignInFailure(db: Db, email: string): Promise<void> {
  const fresh = sql`case when sign_in_failures.last_failure_at < now() - interval '1 hour' then 1 else sign_in_failures.failures + 1 end`;
  await db.execute(
    sql`insert into sign_in_failures (email_key, failures, last_failure_at) values (${signInKey(email)}, 1, now())
        on conflict (email_key) do update set
          failures = ${fresh},
          last_failure_at = now(),
          blocked_until = case when ${fresh} >= ${FAILURES_BEFORE_BACKOFF}
            then now() + make_interval(mins => least(${MAX_BACKOFF_MINUTES}, power(2, ${fresh} - ${FAILURES_BEFORE_BACKOFF})::int))
            else null end`,
  );
  await db.execute(sql`delete from sign_in_failures where last_failure_at < now() - interval '1 day'`);
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.execute(sql`delete from sign_in_failures where email_key = ${signInKey(email)}`);
}
