import { and, eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { chatRooms } from "#app/db/schema/index.ts";

/**
 * The reader's own chat room for an offer, if they ever pressed 交渉する on it. An offer that no
 * longer takes offers keeps that conversation reachable, and offers nothing else: 交渉する there
 * would only be refused.
 */
export async function viewerRoomForOffer(db: Db, offerId: string, viewerId: string): Promise<string | null> {
  const [room] = await db
    .select({ id: chatRooms.id })
    .from(chatRooms)
    .where(and(eq(chatRooms.offerId, offerId), eq(chatRooms.partnerId, viewerId)))
    .limit(1);
  return room?.id ?? null;
}
