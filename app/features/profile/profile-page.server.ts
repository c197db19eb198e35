import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { profiles, users } from "#app/db/schema/index.ts";
import { readTogether } from "#app/db/sql.server.ts";
import { blockedUsersQuery, type BlockedUser } from "#app/features/blocks/blocks.server.ts";
import { roomListQuery, roomSummaries, type ChatRoomSummary, type RoomListRow } from "#app/features/chat/room-views.server.ts";
import { ownOffersFrom, ownOffersQuery } from "#app/features/trades/offers.server.ts";
import type { OfferView } from "#app/features/trades/types.ts";
import type { OfferRow } from "#app/features/trades/offer-views.server.ts";
import { responseRecordQuery, responseRecordsOf, type ResponseRecord, type ResponseRecordRow } from "#app/features/users/response-record.server.ts";

export type ProfilePageData = {
  profile: { email: string; displayName: string; friendId: string | null; completedTrades: number; memberSince: string; emailVerified: boolean };
  record: ResponseRecord;
  chatRooms: ChatRoomSummary[];
  myOffers: OfferView[];
  blockedUsers: BlockedUser[];
};

type ProfileRow = { email: string; displayName: string; friendId: string | null; completedTrades: number; memberSince: string; emailVerified: boolean };

/**
 * What /profile shows of its user — the profile row with the address's verification, their chat
 * rooms, their offers, whom they blocked and their response record — in one round trip
 * (readTogether): on PGlite each query costs its round trip whatever it reads. Null without a
 * profile row. The rooms' partners and offers' cards, when there are rooms, are a second read.
 */
export async function readProfilePage(db: Db, userId: string, now: Date = new Date()): Promise<ProfilePageData | null> {
  const read = await readTogether<{ profile: ProfileRow; rooms: RoomListRow; offers: OfferRow; blocked: BlockedUser; record: ResponseRecordRow }>(db, {
    profile: sql`select ${users.email} as "email", ${profiles.displayName} as "displayName", ${profiles.friendId} as "friendId",
        ${profiles.completedTrades} as "completedTrades", ${users.createdAt} as "memberSince", ${users.emailVerified} as "emailVerified"
      from ${users} join ${profiles} on ${profiles.userId} = ${users.id} where ${users.id} = ${userId} limit 1`,
    rooms: roomListQuery(userId),
    offers: ownOffersQuery(userId),
    blocked: blockedUsersQuery(userId),
    record: responseRecordQuery([userId], now),
  });
  const [row] = read.profile;
  if (!row) return null;
  const [chatRooms, myOffers] = await Promise.all([roomSummaries(db, userId, read.rooms), ownOffersFrom(db, userId, read.offers)]);
  return {
    profile: {
      email: row.email,
      displayName: row.displayName,
      friendId: row.friendId,
      completedTrades: Number(row.completedTrades),
      memberSince: new Date(row.memberSince).toISOString(),
      emailVerified: row.emailVerified,
    },
    record: responseRecordsOf([userId], read.record).get(userId)!,
    chatRooms,
    myOffers,
    blockedUsers: read.blocked,
  };
}
