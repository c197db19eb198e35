import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { z } from "#app/lib/zod.ts";
import { PushError } from "./errors";
import { isPushServiceEndpoint } from "./push-services";

/** Devices one player keeps subscribed; a further one replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

const base64url = /^[A-Za-z0-9_-]+={0,2}$/;
const decoded = (v: string) => Buffer.from(v.replace(/=+$/, ""), "base64url");

/** A browser's PushSubscription.toJSON(), as the page posts it. */
export const PushSubscriptionSchema = z.object({
  // Which push services are allowed is checked by saveSubscription (it needs the configuration).
  endpoint: z.string().url().max(2048),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes, 0x04 first) and a 16-byte auth secret (RFC 8291).
    p256dh: z
      .string()
      .max(200)
      .regex(base64url)
      .refine((v) => {
        const bytes = decoded(v);
        return bytes.length === 65 && bytes[0] === 4;
      }),
    auth: z
      .string()
      .max(100)
      .regex(base64url)
      .refine((v) => decoded(v).length === 16),
  }),
});

export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;

export type StoredSubscription = { id: string; userId: string; endpoint: string; p256dh: string; auth: string; locale: Locale };

/**
 * Keeps a subscription for the user, bound to the session that subscribed (`sessionId`; null only
 * for scripts and tests without one): the row goes when that session ends (sign-out, a revoked
 * device), so a shared browser stops getting the first player's pushes. The same endpoint again
 * from the same user (a re-subscribe, a new key, another of their sessions) takes the new keys.
 * Another account may take an endpoint over only once its binding has ended: the endpoint URL is
 * no secret a browser alone holds, and whoever knows it must not move someone's device to their
 * own account (subscription_taken, 409). A binding is live while its session is (signed in and
 * not expired); a row older than that rule, without a session, while its owner has any live
 * session. An endpoint that is not at a known push service is refused (invalid_subscription);
 * past MAX_SUBSCRIPTIONS_PER_USER the player's oldest device is dropped.
 */
export async function saveSubscription(
  db: Queryable,
  userId: string,
  input: PushSubscriptionInput,
  meta: { sessionId: string | null; userAgent: string | null; locale: Locale; pushServiceOrigins: readonly string[] },
): Promise<string> {
  if (!isPushServiceEndpoint(input.endpoint, meta.pushServiceOrigins)) throw new PushError("invalid_subscription");
  // The conflict's update runs with the row locked, so the check and the move are one step.
  const [row] = await rowsOf<{ id: string }>(
    db,
    sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth, user_agent, locale)
        values (${userId}, ${meta.sessionId}, ${input.endpoint}, ${input.keys.p256dh}, ${input.keys.auth}, ${meta.userAgent?.slice(0, 300) ?? null}, ${meta.locale})
        on conflict (endpoint) do update set user_id = excluded.user_id, session_id = excluded.session_id, p256dh = excluded.p256dh, auth = excluded.auth,
          user_agent = excluded.user_agent, locale = excluded.locale
        where push_subscriptions.user_id = excluded.user_id
          or not exists (
            select 1 from sessions s
            where s.expires_at > now()
              and (s.id = push_subscriptions.session_id or (push_subscriptions.session_id is null and s.user_id = push_subscriptions.user_id)))
        returning id`,
  );
  if (!row) throw new PushError("subscription_taken");
  await db.execute(
    sql`delete from push_subscriptions where id in (
          select id from push_subscriptions where user_id = ${userId} and id <> ${row.id}::uuid
          order by created_at desc, id desc offset ${MAX_SUBSCRIPTIONS_PER_USER - 1})`,
  );
  return row.id;
}

/**
 * A password change replaces the session of the device that made it (the library ends every
 * session and gives this device a new one): that device's subscriptions must not end with the old
 * session. `holdSessionSubscriptions` unbinds them before the change and answers their ids;
 * `bindSubscriptions` binds them to the new session after it, or back to the old one when the
 * change was refused. Unbound meanwhile, they follow the rule for rows without a session.
 */
export async function holdSessionSubscriptions(db: Queryable, sessionId: string): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(db, sql`update push_subscriptions set session_id = null where session_id = ${sessionId} returning id`);
  return rows.map((r) => r.id);
}

export async function bindSubscriptions(db: Queryable, ids: readonly string[], to: { sessionToken: string | null; otherwiseSessionId: string }): Promise<void> {
  if (!ids.length) return;
  await db.execute(
    sql`update push_subscriptions
        set session_id = coalesce((select id from sessions where token = ${to.sessionToken ?? ""}), (select id from sessions where id = ${to.otherwiseSessionId}))
        where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
}

/** Whether this endpoint (this browser's subscription) is registered to the user. */
export async function hasSubscription(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(db, sql`select id from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint}`);
  return rows.length > 0;
}

/** The browser unsubscribed: only the owner's own endpoint is removed. */
export async function deleteSubscription(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(db, sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint} returning id`);
  return rows.length > 0;
}

export async function countSubscriptions(db: Queryable, userId: string): Promise<number> {
  const [row] = await rowsOf<{ n: string | number }>(db, sql`select count(*) as n from push_subscriptions where user_id = ${userId}`);
  return Number(row?.n ?? 0);
}

export async function getSubscription(db: Queryable, id: string): Promise<StoredSubscription | null> {
  const [row] = await rowsOf<{ id: string; user_id: string; endpoint: string; p256dh: string; auth: string; locale: string }>(
    db,
    sql`select id, user_id, endpoint, p256dh, auth, locale from push_subscriptions where id = ${id}::uuid`,
  );
  return row ? { id: row.id, userId: row.user_id, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth, locale: row.locale === "en" ? "en" : "ja" } : null;
}

/** A push service answered 403/404/410 or a redirect, or the endpoint is no push service: the subscription is gone for good. */
export async function dropSubscription(db: Queryable, id: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where id = ${id}::uuid`);
}
