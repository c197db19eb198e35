import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, profiles, users } from "#app/db/schema/index.ts";

const suffix = () => randomBytes(5).toString("hex");

/** A user with a profile, inserted directly (no sign-up flow); friend ID set unless null. */
export async function createUser(
  db: Db,
  options: { name?: string; friendId?: string | null; lastActiveAt?: Date; role?: string } = {},
): Promise<{ id: string; name: string; email: string }> {
  const id = `u_${suffix()}`;
  const name = options.name ?? `テスト${id.slice(2, 6)}`;
  const email = `${id}@example.com`;
  await db.insert(users).values({ id, name, email, role: options.role ?? "user" });
  await db.insert(profiles).values({
    userId: id,
    displayName: name,
    friendId: options.friendId === undefined ? `9${Math.floor(Math.random() * 1e15).toString().padStart(15, "0")}` : options.friendId,
    ...(options.lastActiveAt ? { lastActiveAt: options.lastActiveAt } : {}),
  });
  return { id, name, email };
}

/**
 * `n` catalogue cards of one rarity from packs other than `excludePack` (distinct, stable order),
 * for tests that need real tradeable cards. Needs seedCatalogue first.
 */
export async function catalogueCards(db: Db, rarity: string, n: number, options: { onlyPack?: string } = {}): Promise<{ id: string; name: string; rarity: string }[]> {
  const rows = await db
    .selectDistinct({ id: cards.id, name: cards.name, rarity: cards.rarity })
    .from(cards)
    .innerJoin(cardPacks, eq(cardPacks.cardId, cards.id))
    .where(
      options.onlyPack
        ? and(eq(cards.rarity, rarity), eq(cardPacks.packId, options.onlyPack), sql`not exists (select 1 from card_packs o where o.card_id = ${cards.id} and o.pack_id <> ${options.onlyPack})`)
        : and(eq(cards.rarity, rarity), sql`${cardPacks.packId} <> 'shining-high'`),
    )
    .orderBy(cards.id)
    .limit(n);
  if (rows.length < n) throw new Error(`catalogue has only ${rows.length} ${rarity} cards`);
  return rows;
}
