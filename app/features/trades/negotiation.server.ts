import { inArray, sql } from "drizzle-orm";
import { chatRooms, profiles, tradeOffers } from "#app/db/schema/index.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { offerOpenNow } from "#app/db/open-offers.ts";

/**
 * What the chat changes on an offer when a negotiation moves on. These run inside the chat's
 * transaction (a trade step, a block): the caller notes the board change once that transaction
 * has committed, never before.
 */

/**
 * 条件合意 in the room: the offer becomes 取引中 with this partner, only from 募集中 and before it
 * expires (the expired status is written lazily, so the row may still say open). False otherwise.
 */
export async function startNegotiationFromChat(db: Queryable, { offerId, partnerId }: { offerId: string; partnerId: string }): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`update ${tradeOffers} o set status = 'negotiating', partner_id = ${partnerId}, updated_at = now()
        where o.id = ${offerId} and ${offerOpenNow()}
          and exists (select 1 from ${chatRooms} r where r.offer_id = o.id and r.partner_id = ${partnerId})
        returning o.id`,
  );
  return rows.length > 0;
}

/** キャンセル in the room of the chosen partner: the offer is 募集中 again (expiry unchanged). */
export async function cancelNegotiationFromChat(db: Queryable, { offerId, partnerId }: { offerId: string; partnerId: string }): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`update ${tradeOffers} set status = 'open', partner_id = null, updated_at = now()
        where id = ${offerId} and status = 'negotiating' and partner_id = ${partnerId}
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Both sides pressed 取引完了: the offer becomes 成立 and both users' completed-trade counts go
 * up — exactly once, because only the update that moves the status counts.
 */
export async function completeTradeFromChat(
  db: Queryable,
  { offerId, partnerId }: { offerId: string; partnerId: string },
): Promise<{ completed: boolean }> {
  const result = await db.transaction(async (tx) => {
    const rows = await rowsOf<{ owner_id: string }>(
      tx,
      sql`update ${tradeOffers} o set status = 'completed', partner_id = ${partnerId},
            completed_at = now(), updated_at = now()
          where o.id = ${offerId} and o.status in ('open', 'negotiating', 'expired')
            and (o.partner_id is null or o.partner_id = ${partnerId})
            and exists (select 1 from ${chatRooms} r where r.offer_id = o.id and r.partner_id = ${partnerId})
          returning o.owner_id`,
    );
    const [offer] = rows;
    if (!offer) return { completed: false };
    await tx
      .update(profiles)
      .set({ completedTrades: sql`${profiles.completedTrades} + 1`, lastActiveAt: sql`now()` })
      .where(inArray(profiles.userId, [offer.owner_id, partnerId]));
    return { completed: true };
  });
  return result;
}
