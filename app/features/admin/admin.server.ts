import { count } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { chatRooms } from "#app/db/schema/chat.ts";
import { tradeOffers } from "#app/db/schema/trades.ts";
import { users } from "#app/db/schema/users.ts";

export type DatabaseStats = { users: number; trades: number; chatRooms: number };

/** docs/product-rules.md §3 "Database statistics": users, trades (trade offers) and chat rooms. */
export async function getDatabaseStats(db: Db): Promise<DatabaseStats> {
  const [[u], [t], [c]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(tradeOffers),
    db.select({ n: count() }).from(chatRooms),
  ]);
  return { users: Number(u?.n ?? 0), trades: Number(t?.n ?? 0), chatRooms: Number(c?.n ?? 0) };
}
