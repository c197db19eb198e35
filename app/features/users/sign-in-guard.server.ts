import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";

/**
 * Per-account brute-force limit (docs/decisions/016): failed sign-ins for one address are counted
 * across IPs; from the FAILURES_BEFORE_BACKOFF-th in a row the address waits 1 minute before the
 * next password is even checked, and after each wait FAILURES_AFTER_WAIT more failures start the
 * next wait, twice as long, up to MAX_BACKOFF_MINUTES. Never a permanent lock a stranger could put
 * on a real user: the wait holds only the client IPs that failed for the address (a client with no
 * failure for it is checked as usual) until the address has ADDRESS_FAILURE_CAP failures in the
 * hour; a successful sign-in or a password reset clears the count. The per-IP limit
 * (AUTH_RATE_LIMIT_MAX) applies on top.
 */
export const FAILURES_BEFORE_BACKOFF = 5;
export const FAILURES_AFTER_WAIT = 3;
export const MAX_BACKOFF_MINUTES = 15;
export const ADDRESS_FAILURE_CAP = 30;
/** At most this many failing IPs are kept per address. */
const FAILED_IPS_KEPT = 50;

export const signInKey = (email: string) => email.trim().toLowerCase();

/** Minutes the address must still wait before `clientIp` may try it, or 0. */
export async function signInWaitMinutes(db: Db, email: string, clientIp: string | null): Promise<number> {
  const [row] = await rowsOf<{ seconds: number | null; held: boolean }>(
    db,
    sql`select extract(epoch from blocked_until - now())::float8 as seconds,
          (${clientIp}::text is null or ${clientIp}::text = any(failed_ips) or failures >= ${ADDRESS_FAILURE_CAP}) as held
        from sign_in_failures
        where email_key = ${signInKey(email)} and blocked_until > now()`,
  );
  if (!row?.held || !row.seconds) return 0;
  return Math.max(1, Math.ceil(Number(row.seconds) / 60));
}

/** Counts a failed sign-in from `clientIp`; a count older than an hour starts again. */
export async function recordSignInFailure(db: Db, email: string, clientIp: string | null): Promise<void> {
  const fresh = sql`case when sign_in_failures.last_failure_at < now() - interval '1 hour' then 1 else sign_in_failures.failures + 1 end`;
  const ips = clientIp ? sql`array[${clientIp}::text]` : sql`'{}'::text[]`;
  // A wait starts at the 5th failure, then at every 3rd after it (8th, 11th, …): one wrong
  // password after a wait does not start the next one.
  const waitStep = sql`(${fresh} - ${FAILURES_BEFORE_BACKOFF})`;
  await db.execute(
    sql`insert into sign_in_failures (email_key, failures, last_failure_at, failed_ips) values (${signInKey(email)}, 1, now(), ${ips})
        on conflict (email_key) do update set
          failures = ${fresh},
          last_failure_at = now(),
          failed_ips = (array(select distinct unnest(
            case when sign_in_failures.last_failure_at < now() - interval '1 hour' then '{}'::text[] else sign_in_failures.failed_ips end || ${ips})))[1:${FAILED_IPS_KEPT}],
          blocked_until = case
            when ${waitStep} >= 0 and ${waitStep} % ${FAILURES_AFTER_WAIT} = 0
              then now() + make_interval(mins => least(${MAX_BACKOFF_MINUTES}, power(2, ${waitStep} / ${FAILURES_AFTER_WAIT})::int))
            else sign_in_failures.blocked_until end`,
  );
  await db.execute(sql`delete from sign_in_failures where last_failure_at < now() - interval '1 day'`);
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.execute(sql`delete from sign_in_failures where email_key = ${signInKey(email)}`);
}
