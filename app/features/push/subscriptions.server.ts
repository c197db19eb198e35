import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "../../db/sql.server";
import type { Locale } from "../../lib/i18n";
import { z } from "../../lib/zod";

/** A browser's PushSubscription.toJSON(), as the page posts it. */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(2048)
    .refine((v) => {
      try {
        const url = new URL(v);
        // Push services are https; http only for a push service on this machine (tests).
        return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname));
      } catch {
        return false;
      }
    }),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/).max(200),
    auth: z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/).max(100),
  }),
});

export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;

export type StoredSubscription = { id: string; userId: string; endpoint: string; p256dh: string; auth: string; locale: Locale };

/**
 * Keeps a subscription for the user. The same endpoint subscribed again (a re-subscribe, or
 * another account on the same browser) moves to this user with the new keys.
 */
export async function saveSubscription(db: Queryable, userId: string, input: PushSubscriptionInput, meta: { userAgent: string | null; locale: Locale }): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    db,
    sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, user_agent, locale)
        values (${userId}, ${input.endpoint}, ${input.keys.p256dh}, ${input.keys.auth}, ${meta.userAgent?.slice(0, 300) ?? null}, ${meta.locale})
        on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
          user_agent = excluded.user_agent, locale = excluded.locale
        returning id`,
  );
  return row.id;
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

/** A push service answered 404/410: the subscription is gone for good. */
export async function dropSubscription(db: Queryable, id: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where id = ${id}::uuid`);
}
