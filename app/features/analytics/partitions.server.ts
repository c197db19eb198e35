import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";

/**
 * analytics_events is partitioned by month (UTC months; a partition is a cheap DROP TABLE when it
 * falls out of the retention period). The current and the next month are created ahead, so rows
 * normally never land in the default partition; if they do (a clock jump), they are still read
 * through the parent and deleted by retention like any other row.
 */
export function monthPartition(at: Date): { name: string; from: string; to: string } {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const from = new Date(Date.UTC(y, m, 1));
  const to = new Date(Date.UTC(y, m + 1, 1));
  return { name: `analytics_events_${from.toISOString().slice(0, 7).replace("-", "_")}`, from: from.toISOString(), to: to.toISOString() };
}

export async function ensurePartitions(db: Db, now = new Date()): Promise<string[]> {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const made: string[] = [];
  for (const part of [monthPartition(now), monthPartition(next)]) {
    // The name is built from digits only (monthPartition), never from input.
    const create = sql.raw(`create table if not exists ${part.name} partition of analytics_events for values from ('${part.from}') to ('${part.to}')`);
    try {
      await db.execute(create);
    } catch {
      // The default partition already holds rows of this month: move them into the new partition.
      await db.transaction(async (tx) => {
        const range = sql`ts >= ${part.from} and ts < ${part.to}`;
        await tx.execute(sql`create temporary table analytics_moving on commit drop as select * from analytics_events_default where ${range}`);
        await tx.execute(sql`delete from analytics_events_default where ${range}`);
        await tx.execute(create);
        await tx.execute(sql`insert into analytics_events select * from analytics_moving`);
      });
    }
    made.push(part.name);
  }
  return made;
}

/**
 * Deletes raw events older than `retentionDays`: whole monthly partitions that end before the
 * cut-off are dropped, rows older than it in the partition that straddles it are deleted.
 * Rollups and the per-offer funnel are kept.
 */
export async function applyRetention(db: Db, retentionDays: number, now = new Date()): Promise<{ droppedPartitions: string[] }> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const parts = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i
        join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = 'analytics_events' and c.relname ~ '^analytics_events_[0-9]{4}_[0-9]{2}$'`,
  );
  const dropped: string[] = [];
  for (const { name } of parts) {
    const [, y, m] = /^analytics_events_(\d{4})_(\d{2})$/.exec(name)!;
    const end = new Date(Date.UTC(Number(y), Number(m), 1));
    if (end <= cutoff) {
      await db.execute(sql.raw(`drop table if exists ${name}`));
      dropped.push(name);
    }
  }
  await db.execute(sql`delete from analytics_events where ts < ${cutoff.toISOString()}`);
  return { droppedPartitions: dropped };
}
