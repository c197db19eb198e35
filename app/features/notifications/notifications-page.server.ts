import type { Db } from "#app/db/client.server.ts";
import { readTogether } from "#app/db/sql.server.ts";
import { roomListQuery, roomSummaries, type ChatRoomSummary, type RoomListRow } from "#app/features/chat/room-views.server.ts";
import { notificationPageOf, notificationsQuery, type NotificationListOptions, type NotificationRow } from "./notifications.server";
import type { NotificationView } from "./types";
import { wantedCardsOf, wantedCardsQuery, type WantedCard, type WantedCardRow } from "./want-list.server";

/** The chat rooms /notifications lists. */
const PAGE_ROOMS = 20;

export type NotificationsPageData = { items: NotificationView[]; nextCursor: string | null; chatRooms: ChatRoomSummary[]; wantedCards: WantedCard[] };

/**
 * What /notifications shows — a page of notifications, the chat rooms and the want list — in one
 * round trip (readTogether: on PGlite each query costs its round trip whatever it reads). The
 * rooms' partners and offers' cards, when there are rooms, are a second read.
 */
export async function readNotificationsPage(db: Db, userId: string, options: NotificationListOptions = {}): Promise<NotificationsPageData> {
  const read = await readTogether<{ notifications: NotificationRow; rooms: RoomListRow; wanted: WantedCardRow }>(db, {
    notifications: notificationsQuery(userId, options),
    rooms: roomListQuery(userId, PAGE_ROOMS),
    wanted: wantedCardsQuery(userId),
  });
  return { ...notificationPageOf(read.notifications, options), chatRooms: await roomSummaries(db, userId, read.rooms), wantedCards: wantedCardsOf(read.wanted) };
}
