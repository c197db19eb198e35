import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { blocks, profiles, users } from "#app/db/schema/index.ts";
import { rowsOf, type Queryable, type Tx } from "#app/db/sql.server.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { startUpSlot } from "#app/lib/start-up-slot.ts";
import type { ChatMessage } from "#app/features/chat/protocol.ts";
import { BlockError } from "./errors";

/**
 * Blocking — one rule, whichever screen it comes from (the offer page, its API, a chat room):
 * - a block hides each side's offers from the other, and stops responding, writing and trade
 *   steps between them (either direction counts);
 * - a 取引中 negotiation between the two ends at once (the room's usual キャンセル message), so the
 *   offer goes back on the board instead of staying stuck with someone who cannot answer;
 * - the blocker can see and lift their blocks (/profile ブロック中のユーザー).
 */

/** Who blocked whom between two users: the blockers' ids (empty when neither did). */
export async function blockersBetween(db: Queryable, a: string, b: string): Promise<string[]> {
  const rows = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))));
  return rows.map((row) => row.blockerId);
}

/** True when either user blocked the other. */
export async function isBlockedEitherWay(db: Queryable, a: string, b: string): Promise<boolean> {
  return (await blockersBetween(db, a, b)).length > 0;
}

/** The users this one blocked or was blocked by (usually none): offer lists hide their offers both ways. */
export async function blockedEitherWay(db: Queryable, userId: string): Promise<Set<string>> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select blocked_id as id from ${blocks} where blocker_id = ${userId} union all select blocker_id from ${blocks} where blocked_id = ${userId}`,
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * SQL for lists of what others posted: the owner (`ownerColumn`, an offer's `o.owner_id` unless
 * named) and the viewer have not blocked each other.
 */
export function notBlockedFor(viewerId: string | null | undefined, ownerColumn = "o.owner_id"): SQL {
  if (!viewerId) return sql`true`;
  const owner = sql.raw(ownerColumn);
  return sql`not exists (
    select 1 from ${blocks} b
    where (b.blocker_id = ${viewerId} and b.blocked_id = ${owner})
       or (b.blocker_id = ${owner} and b.blocked_id = ${viewerId}))`;
}

export type BlockResult = { blockedId: string; cancelled: EndedTrade[] };
export type EndedTrade = { roomId: string; message: ChatMessage };

/**
 * Ends the 取引中 trades between a blocker and the one they block, inside the block's transaction,
 * and answers each room's system message. The chat registers it at start-up
 * (app/registrations.server.ts), so blocks does not import the chat that imports it.
 */
export type EndTradesBetween = (tx: Tx, blockerId: string, blockedId: string) => Promise<EndedTrade[]>;
const endTradesBetween = startUpSlot<EndTradesBetween>("the ending of trades on a block");

export const registerTradeEnding = endTradesBetween.fill;

/** Blocks `blockedId` for `blockerId` and ends any 取引中 trade between them, in one transaction. */
export async function blockUser(db: Db, blockerId: string, blockedId: string): Promise<BlockResult> {
  if (blockerId === blockedId) throw new BlockError("cannot_block_self");
  const [target] = await db.select({ id: users.id, deletedAt: profiles.deletedAt }).from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, blockedId));
  // A deleted account (its row stays as 退会したユーザー) can do nothing more: there is no one to block.
  if (!target || target.deletedAt) throw new BlockError("not_found");
  const cancelled = await db.transaction(async (tx) => {
    await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();
    // A 取引中 trade between the two ends with the block (the chat's rule, registered at start-up).
    return endTradesBetween.get()(tx, blockerId, blockedId);
  });
  // Blocks hide offers both ways, and an ended trade puts its offer back: after commit.
  publishChange("board");
  return { blockedId, cancelled };
}

export async function unblockUser(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
  publishChange("board");
}

/** ブロック中のユーザー: whom this user blocked, most recent first. */
export async function listBlockedUsers(db: Db, blockerId: string): Promise<BlockedUser[]> {
  return rowsOf<BlockedUser>(db, blockedUsersQuery(blockerId));
}

export type BlockedUser = { userId: string; displayName: string };

/** Whom the user blocked, newest first (BlockedUser; readTogether can run it with others). */
export function blockedUsersQuery(blockerId: string): SQL {
  return sql`select b.blocked_id as "userId", p.display_name as "displayName"
      from ${blocks} b join ${profiles} p on p.user_id = b.blocked_id
      where b.blocker_id = ${blockerId}
      order by b.created_at desc`;
}
