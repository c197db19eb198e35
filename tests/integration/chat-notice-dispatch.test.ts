import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { handOverUndispatched } from "#app/features/notifications/notice-dispatch.server.ts";
import { countUnreadNotifications } from "#app/features/notifications/notifications.server.ts";
import { setOpenTabs } from "#app/features/notifications/open-tabs.server.ts";
import { setPresence } from "#app/features/push/presence.server.ts";
import { chatRooms } from "#app/db/schema/index.ts";
import { createChatOffer, createChatRoom, createChatUser, newClientId } from "#tests/support/chat-factories.ts";
import type { TestSmtpServer } from "#tests/support/smtp-server.ts";
import type { TestDatabase } from "#tests/support/test-db.ts";
import { notificationStand } from "#tests/support/notification-stand.ts";
import { until } from "#tests/support/wait.ts";

// A chat message's notification is its own outbox entry (docs/decisions/048): the message's
// statement writes the message and the notification, this process tells the channels after the
// commit, and what an instance bumped and never told is handed to the outbox by the sweep.

const stand = notificationStand("s".repeat(40));
let database: TestDatabase;
let smtp: TestSmtpServer;
beforeAll(() => {
  ({ database, smtp } = stand);
});
const worker = () => stand.worker();

const send = (roomId: string, userId: string, body: string) => sendMessage(database.db, { roomId, userId, clientId: newClientId(), body });

async function verified(userId: string): Promise<string> {
  const [row] = await rowsOf<{ email: string }>(database.db, sql`update users set email_verified = true where id = ${userId} returning email`);
  return row.email;
}

type NoticeState = { id: string; count: number; dispatched_count: number };
const noticeOf = async (userId: string) =>
  (await rowsOf<NoticeState>(database.db, sql`select id, count, dispatched_count from notifications where user_id = ${userId} and kind = 'message' and read_at is null`))[0];

/** The outbox rows about one notification, by kind. */
async function outboxRowsOf(notificationId: string) {
  return rowsOf<{ kind: string; dedupe_key: string; status: string; payload: { n?: number } }>(
    database.db,
    sql`select kind, dedupe_key, status, payload from delivery_outbox where payload->>'id' = ${notificationId} order by id`,
  );
}

async function told(userId: string) {
  await until(async () => {
    const n = await noticeOf(userId);
    return n !== undefined && n.dispatched_count === n.count;
  }, "the channels told of the latest message");
}

describe("a chat message's notification without an outbox row per message", () => {
  it("five messages leave one notification at count 5, no notify row, and one mail check for the room and reader", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    for (let i = 1; i <= 5; i++) await send(roomId, partner.id, `メッセージ${i}`);
    await told(owner.id);
    const notice = await noticeOf(owner.id);
    expect(notice.count).toBe(5);
    const rows = await outboxRowsOf(notice.id);
    expect(rows.map((r) => [r.kind, r.dedupe_key, r.status])).toEqual([["notify-mail", `notify-mail:${notice.id}`, "pending"]]);
  });

  it("tells the player's open tabs the bell's count read with the notification, a kind hidden from the inbox left out", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    // A second room where the same player is the one who pressed 交渉する.
    const other = await createChatUser(database.db);
    const offer = await createChatOffer(database.db, other.id);
    const [second] = await database.db.insert(chatRooms).values({ offerId: offer.id, ownerId: other.id, partnerId: owner.id }).returning({ roomId: chatRooms.id });
    // A kind whose サイト内 channel is off is still stored, and not counted.
    await database.db.execute(sql`insert into notification_preferences (user_id, channels) values (${owner.id}, '{"expiring": {"site": "off"}, "message": {"site": "on"}}'::jsonb)`);
    await database.db.execute(sql`insert into notifications (user_id, kind) values (${owner.id}, 'expiring'), (${owner.id}, 'response')`);
    const told: { userId: string; unread?: number }[] = [];
    setOpenTabs({ noticeChanged: async (userId, unread) => void told.push({ userId, unread }) });
    try {
      await send(roomId, partner.id, "一つめの部屋");
      await until(() => told.length === 1, "the first room's notification told");
      await send(second.roomId, other.id, "二つめの部屋");
      await until(() => told.length === 2, "the second room's notification told");
    } finally {
      setOpenTabs(null);
    }
    // The response and one room's messages, then two rooms': what the bell reads itself.
    expect(told).toEqual([
      { userId: owner.id, unread: 2 },
      { userId: owner.id, unread: 3 },
    ]);
    expect(await countUnreadNotifications(database.db, owner.id)).toBe(3);
  });

  it("a mail check that finds the player here comes back for the events after it, and a later message arms it again once it ended", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    let online = true;
    setPresence({ isOnline: async (userId) => online && userId === owner.id, isViewingRoom: async () => false });
    for (let i = 1; i <= 3; i++) await send(roomId, partner.id, `いますか${i}`);
    await told(owner.id);
    const notice = await noticeOf(owner.id);
    worker();
    await until(async () => (await outboxRowsOf(notice.id)).every((r) => r.status === "sent"), "the check to end while the player is here");
    const [check] = await outboxRowsOf(notice.id);
    // Whatever count it was armed at, it ended having seen all three.
    expect(check).toMatchObject({ kind: "notify-mail", status: "sent", payload: { n: 3 } });
    expect(smtp.to(email)).toHaveLength(0);

    online = false;
    await send(roomId, partner.id, "いなくなりました？");
    await until(() => smtp.to(email).length === 1, "the mail once the player left");
    expect(smtp.to(email)[0].subject).toContain("新しいメッセージが4件あります");
    expect((await outboxRowsOf(notice.id)).filter((r) => r.kind === "notify-mail")).toHaveLength(1);
  });

  it("a notification an instance bumped and never told (it died after the commit) is handed to the outbox by the sweep and mailed", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    await send(roomId, partner.id, "届きますか");
    await told(owner.id);
    const notice = await noticeOf(owner.id);
    // What a dead instance leaves: two more messages stored and counted, their channels never told.
    await rowsOf(
      database.db,
      sql`update notifications set count = 3, updated_at = now() - interval '2 minutes' where id = ${notice.id}::uuid returning id`,
    );
    await rowsOf(database.db, sql`delete from delivery_outbox where payload->>'id' = ${notice.id} returning id`);
    // One still in flight at another instance (bumped just now) is left to it.
    const busy = await createChatRoom(database.db);
    await send(busy.roomId, busy.partner.id, "送信中");
    await told(busy.owner.id);
    const inFlight = await noticeOf(busy.owner.id);
    await rowsOf(database.db, sql`update notifications set count = 2 where id = ${inFlight.id}::uuid returning id`);

    expect(await handOverUndispatched(database.db)).toBe(1);
    expect(await handOverUndispatched(database.db)).toBe(0);
    expect(await noticeOf(owner.id)).toMatchObject({ count: 3, dispatched_count: 3 });
    expect((await outboxRowsOf(notice.id)).map((r) => [r.kind, r.payload.n])).toEqual([["notify", 3]]);
    expect(await noticeOf(busy.owner.id)).toMatchObject({ count: 2, dispatched_count: 1 });

    worker();
    await until(() => smtp.to(email).length === 1, "the mail of the handed-over notification");
    expect(smtp.to(email)[0].subject).toContain("新しいメッセージが3件あります");
  });
});
