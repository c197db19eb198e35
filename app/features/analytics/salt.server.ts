import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { tokyoDay } from "#app/lib/tokyo-time.ts";

/**
 * Visitors are counted the way Plausible does: hash(daily salt, IP, user agent, site). The salt of
 * each Asia/Tokyo day is a database row, so every instance hashes a visitor alike; it is deleted
 * after two days, so the hashes of the day before yesterday can never be recomputed.
 */

const DAY_MS = 86_400_000;
const TOKYO_OFFSET_MS = 9 * 3_600_000;

/** The Asia/Tokyo calendar day of a moment: the site's one rule (lib/tokyo-time), which the browser uses too. */
export { tokyoDay };

/** The moment a Tokyo day starts (00:00 JST). */
export function tokyoDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - TOKYO_OFFSET_MS);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const salts = createCache<string>({ name: "analytics-salt", max: 8, ttlMs: 10 * 60_000 });

/**
 * The salt of `day`: created by whichever instance asks first (the primary key decides a race),
 * read by the others. Salts older than yesterday, and the visitor links of their days, go.
 */
export async function dailySalt(db: Db, day: string): Promise<string> {
  return salts.remember(`${scopeOf(db)}:${day}`, async () => {
    await db.execute(sql`insert into analytics_salts (day, salt) values (${day}, ${randomBytes(32).toString("base64")}) on conflict (day) do nothing`);
    const [row] = await rowsOf<{ salt: string }>(db, sql`select salt from analytics_salts where day = ${day}`);
    await deleteOldSalts(db, day);
    return row.salt;
  });
}

/** Keeps the salts (and visitor links) of `today` and the day before; everything older goes. */
export async function deleteOldSalts(db: Db, today: string): Promise<void> {
  const keepFrom = addDays(today, -1);
  await db.execute(sql`delete from analytics_salts where day < ${keepFrom}`);
  await db.execute(sql`delete from analytics_visitor_users where day < ${keepFrom}`);
}

/** A 64-bit visitor id (signed, as PostgreSQL's bigint) of one day's salt, IP, user agent and site. */
export function visitorHash(salt: string, ip: string, userAgent: string, site: string): bigint {
  const digest = createHash("sha256").update(`${salt}\u0000${ip}\u0000${userAgent}\u0000${site}`).digest();
  return digest.readBigInt64BE(0);
}
