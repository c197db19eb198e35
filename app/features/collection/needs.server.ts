import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { countsOf } from "./collection.server";

/** A card a list (a deck recipe) asks for, and how many copies. */
export type CardNeed = { cardId: string; count: number };
/** One needed card against the player's collection. */
export type NeedState = { cardId: string; need: number; owned: number; missing: number };
export type NeedsAgainstCollection = { cards: NeedState[]; /** Copies still missing (あと N 枚). */ missing: number };

/**
 * How many copies of each needed card the player lacks. A print counts only for itself: the
 * catalogue knows prints of one name (card-family), not which of them play the same (an ex and
 * an art print of it do, two ピカチュウ with other attacks do not), so a deck's print is the card it needs.
 */
export function needsAgainst(needs: readonly CardNeed[], owned: ReadonlyMap<string, number>): NeedsAgainstCollection {
  const byCard = new Map<string, number>();
  for (const n of needs) byCard.set(n.cardId, (byCard.get(n.cardId) ?? 0) + n.count);
  const cards = [...byCard].map(([cardId, need]) => {
    const have = owned.get(cardId) ?? 0;
    return { cardId, need, owned: have, missing: Math.max(0, need - have) };
  });
  return { cards, missing: cards.reduce((sum, c) => sum + c.missing, 0) };
}

/** Whether the player has a collection: at least one owned card (one index probe). */
export async function hasCollection(db: Queryable, userId: string): Promise<boolean> {
  const rows = await rowsOf<{ x: number }>(db, sql`select 1 as x from collection_cards where user_id = ${userId} limit 1`);
  return rows.length > 0;
}

/**
 * The needed cards against the player's collection, or null when the player has none (nothing
 * owned yet: marking every card missing would only say they have not started).
 */
export async function needsAgainstCollection(db: Queryable, userId: string, needs: readonly CardNeed[]): Promise<NeedsAgainstCollection | null> {
  const [started, counts] = await Promise.all([hasCollection(db, userId), countsOf(db, userId, needs.map((n) => n.cardId))]);
  if (!started) return null;
  return needsAgainst(needs, counts);
}
