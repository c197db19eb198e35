import { and, eq } from "drizzle-orm";
import { AppError } from "#app/lib/errors.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blocks, chatMessages, profiles, reports, tradeOffers } from "#app/db/schema/index.ts";
import {
  applyTradeStep,
  blockRoomPartner,
  countUnread,
  listMessages,
  markRead,
  sendMessage,
  unblockRoomPartner,
} from "#app/features/chat/chat.server.ts";
import { getRoomView, listRoomsForUser } from "#app/features/chat/room-views.server.ts";
import { reportMessage } from "#app/features/moderation/moderation.server.ts";
import { createChatRoom, createChatUser, newClientId } from "#tests/support/chat-factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const code = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "resolved";
  } catch (err) {
    // Chat's own refusals and those of the features it calls (blocks, moderation).
    if (err instanceof AppError) return err.code;
    throw err;
  }
};

describe("chat membership", () => {
  it("only the two participants can read, write, press steps or see the room; anyone else gets not_found", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    const stranger = await createChatUser(db);
    await sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "こんにちは" });
    expect(await listMessages(db, roomId, partner.id)).toHaveLength(1);
    expect(await code(listMessages(db, roomId, stranger.id))).toBe("not_found");
    expect(await code(getRoomView(db, roomId, stranger.id))).toBe("not_found");
    expect(await code(sendMessage(db, { roomId, userId: stranger.id, clientId: newClientId(), body: "x" }))).toBe("not_found");
    expect(await code(applyTradeStep(db, { roomId, userId: stranger.id, step: "agree" }))).toBe("not_found");
    expect(await code(markRead(db, roomId, stranger.id, 1))).toBe("not_found");
    expect(await code(getRoomView(db, "not-a-uuid", owner.id))).toBe("not_found");
    expect(await code(getRoomView(db, "00000000-0000-4000-8000-000000000000", owner.id))).toBe("not_found");
    const [stored] = await db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId));
    expect(await code(reportMessage(db, { reporterId: stranger.id, messageId: stored.id, reason: "spam" }))).toBe("not_found");
    // Nothing was written by the refused calls.
    expect(await db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(1);
  });
});

describe("suspended users", () => {
  it("a participant suspended after the room opened can no longer read, write or press steps; nothing is written", async () => {
    const db = database.db;
    const { roomId, owner, partner, offer } = await createChatRoom(db);
    const clientId = newClientId();
    await sendMessage(db, { roomId, userId: partner.id, clientId, body: "停止前" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, partner.id));

    expect(await code(sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "停止後" }))).toBe("suspended");
    // Not even a retry of a stored send answers.
    expect(await code(sendMessage(db, { roomId, userId: partner.id, clientId, body: "停止前" }))).toBe("suspended");
    for (const step of ["friend_requested", "cancel"] as const) {
      expect(await code(applyTradeStep(db, { roomId, userId: partner.id, step }))).toBe("suspended");
    }
    expect(await code(listMessages(db, roomId, partner.id, { afterSeq: 0 }))).toBe("suspended");
    const rows = await db.select({ body: chatMessages.body }).from(chatMessages).where(eq(chatMessages.roomId, roomId)).orderBy(chatMessages.seq);
    expect(rows.map((r) => r.body)).toEqual(["停止前", "agree", "agree", "agreed"]);
    const [stored] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offer.id));
    expect(stored).toMatchObject({ status: "negotiating", partnerId: partner.id });
    // The other side is unaffected, and a suspended stranger still learns nothing about the room.
    expect((await sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "大丈夫？" })).created).toBe(true);
    const stranger = await createChatUser(db);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, stranger.id));
    expect(await code(sendMessage(db, { roomId, userId: stranger.id, clientId: newClientId(), body: "x" }))).toBe("not_found");
    expect(await code(applyTradeStep(db, { roomId, userId: stranger.id, step: "agree" }))).toBe("not_found");
  });
});

describe("sending", () => {
  it("is idempotent by client id: a retried send returns the stored message and stores nothing new", async () => {
    const db = database.db;
    const { roomId, owner } = await createChatRoom(db);
    const clientId = newClientId();
    const first = await sendMessage(db, { roomId, userId: owner.id, clientId, body: "カード交換しませんか" });
    const again = await sendMessage(db, { roomId, userId: owner.id, clientId, body: "カード交換しませんか" });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.message).toEqual(first.message);
    // Two copies racing each other still make one row.
    const raced = newClientId();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sendMessage(db, { roomId, userId: owner.id, clientId: raced, body: "同時" })),
    );
    expect(new Set(results.map((r) => r.message.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.seq).sort()).toEqual([1, 2]);
  });

  it("rejects empty and over-long bodies, keeps HTML as plain text, and respects the rate limiter", async () => {
    const db = database.db;
    const { roomId, owner } = await createChatRoom(db);
    expect(await code(sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "  \n " }))).toBe("empty");
    expect(await code(sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "あ".repeat(1001) }))).toBe("too_long");
    const ok = await sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "あ".repeat(1000) });
    expect(ok.message.body).toHaveLength(1000);
    const html = await sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "<b>太字</b>\r\n2行目" });
    expect(html.message.body).toBe("<b>太字</b>\n2行目");
    expect(await code(sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: "多すぎ" }, async () => false))).toBe("rate_limited");
    expect(await db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(2);
  });

  it("keeps one gap-free order under concurrent sends from both sides", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    const sends = [];
    for (let i = 0; i < 20; i++) {
      sends.push(sendMessage(db, { roomId, userId: owner.id, clientId: `o-${i}`, body: `owner ${i}` }));
      sends.push(sendMessage(db, { roomId, userId: partner.id, clientId: `p-${i}`, body: `partner ${i}` }));
    }
    const results = await Promise.all(sends);
    const seqs = results.map((r) => r.message.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const history = await listMessages(db, roomId, owner.id, { afterSeq: 0, limit: 200 });
    expect(history.map((m) => m.seq)).toEqual(seqs);
    // Each sender's own messages keep the order in which each was acknowledged.
    const ownerBodies = history.filter((m) => m.senderId === owner.id).map((m) => m.body);
    expect(new Set(ownerBodies).size).toBe(20);
  });

  it("syncs everything after a sequence number, and pages older history backwards", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    for (let i = 1; i <= 12; i++) await sendMessage(db, { roomId, userId: owner.id, clientId: `m${i}`, body: `message ${i}` });
    // The partner last saw seq 4 (e.g. went offline): sync brings 5..12 once, in order.
    const gap = await listMessages(db, roomId, partner.id, { afterSeq: 4 });
    expect(gap.map((m) => m.body)).toEqual(Array.from({ length: 8 }, (_, i) => `message ${i + 5}`));
    expect(await listMessages(db, roomId, partner.id, { afterSeq: 12 })).toEqual([]);
    const latest = await listMessages(db, roomId, partner.id, { limit: 5 });
    expect(latest.map((m) => m.seq)).toEqual([8, 9, 10, 11, 12]);
    const older = await listMessages(db, roomId, partner.id, { beforeSeq: 8, limit: 5 });
    expect(older.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7]);
  });
});

describe("unread counts and the rooms list", () => {
  it("counts the other side's messages after the read cursor, per room and in total", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    for (let i = 0; i < 3; i++) await sendMessage(db, { roomId, userId: owner.id, clientId: newClientId(), body: `hi ${i}` });
    await sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "返信" });
    expect(await countUnread(db, partner.id)).toBe(3);
    expect(await countUnread(db, owner.id)).toBe(1);
    let rooms = await listRoomsForUser(db, partner.id);
    expect(rooms).toHaveLength(1);
    expect(rooms[0]).toMatchObject({ id: roomId, partnerName: owner.name, unread: 3, offerStatus: "open" });
    expect(rooms[0].lastMessage?.body).toBe("返信");
    expect(rooms[0].offerCards.map((c) => c.side).sort()).toEqual(["give", "want"]);
    await markRead(db, roomId, partner.id, 2);
    expect(await countUnread(db, partner.id)).toBe(1);
    // The cursor never moves back, and cannot run ahead of the room.
    await markRead(db, roomId, partner.id, 1);
    expect(await countUnread(db, partner.id)).toBe(1);
    expect(await markRead(db, roomId, partner.id, 999)).toBe(4);
    rooms = await listRoomsForUser(db, partner.id);
    expect(rooms[0].unread).toBe(0);
  });
});

describe("trade steps", () => {
  it("runs 条件合意 → フレンド申請済み → ゲーム内でトレード申請済み → both 取引完了 → 成立, revealing friend IDs only after agreement", async () => {
    const db = database.db;
    const { roomId, owner, partner, offer } = await createChatRoom(db, { ownerFriendId: "1111222233334444", partnerFriendId: "5555666677778888" });
    let view = await getRoomView(db, roomId, partner.id);
    expect(view.partner.friendId).toBeNull();
    // Steps out of order are refused.
    expect(await code(applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" }))).toBe("step_not_allowed");
    expect(await code(applyTradeStep(db, { roomId, userId: owner.id, step: "complete" }))).toBe("step_not_allowed");

    const a1 = await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    expect(a1.messages.map((m) => m.body)).toEqual(["agree"]);
    expect((await getRoomView(db, roomId, partner.id)).partner.friendId).toBeNull();
    // Pressing again is a no-op, not a second message.
    expect((await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" })).messages).toEqual([]);
    const a2 = await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    expect(a2.messages.map((m) => m.body)).toEqual(["agree", "agreed"]);
    expect(a2.offerStatus).toBe("negotiating");
    view = await getRoomView(db, roomId, partner.id);
    expect(view.partner.friendId).toBe("1111222233334444");
    expect((await getRoomView(db, roomId, owner.id)).partner.friendId).toBe("5555666677778888");

    await applyTradeStep(db, { roomId, userId: partner.id, step: "friend_requested" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "game_trade_requested" });
    const c1 = await applyTradeStep(db, { roomId, userId: owner.id, step: "complete" });
    expect(c1.progress.completed).toBe(false);
    const c2 = await applyTradeStep(db, { roomId, userId: partner.id, step: "complete" });
    expect(c2.progress.completed).toBe(true);
    expect(c2.offerStatus).toBe("completed");
    expect(c2.messages.map((m) => m.body)).toEqual(["complete", "completed"]);

    const [stored] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offer.id));
    expect(stored.status).toBe("completed");
    expect(stored.partnerId).toBe(partner.id);
    expect(stored.completedAt).not.toBeNull();
    for (const id of [owner.id, partner.id]) {
      const [p] = await db.select().from(profiles).where(eq(profiles.userId, id));
      expect(p.completedTrades).toBe(1);
    }
    // Every step is a system message both sides read, in sequence order.
    const history = await listMessages(db, roomId, owner.id);
    expect(history.map((m) => `${m.kind}:${m.body}`)).toEqual([
      "system:agree",
      "system:agree",
      "system:agreed",
      "system:friend_requested",
      "system:game_trade_requested",
      "system:complete",
      "system:complete",
      "system:completed",
    ]);
    // A finished trade takes no more steps.
    expect(await code(applyTradeStep(db, { roomId, userId: owner.id, step: "cancel" }))).toBe("step_not_allowed");
  });

  it("two completions pressed at the same moment count the trade once", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    for (const [userId, step] of [
      [owner.id, "agree"],
      [partner.id, "agree"],
      [owner.id, "friend_requested"],
      [owner.id, "game_trade_requested"],
    ] as const) {
      await applyTradeStep(db, { roomId, userId, step });
    }
    await Promise.all([
      applyTradeStep(db, { roomId, userId: owner.id, step: "complete" }),
      applyTradeStep(db, { roomId, userId: partner.id, step: "complete" }),
    ]);
    const history = await listMessages(db, roomId, owner.id);
    expect(history.filter((m) => m.body === "completed")).toHaveLength(1);
    const [p] = await db.select().from(profiles).where(eq(profiles.userId, owner.id));
    expect(p.completedTrades).toBe(1);
  });

  it("キャンセル puts a negotiating offer back on the board and ends the steps", async () => {
    const db = database.db;
    const { roomId, owner, partner, offer } = await createChatRoom(db);
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    const cancelled = await applyTradeStep(db, { roomId, userId: partner.id, step: "cancel" });
    expect(cancelled.offerStatus).toBe("open");
    expect(cancelled.progress.cancelled).toBe(true);
    const [stored] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offer.id));
    expect(stored).toMatchObject({ status: "open", partnerId: null });
    expect(await code(applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" }))).toBe("step_not_allowed");
  });

  it("refuses steps in a second room once the offer is being traded with someone else", async () => {
    const db = database.db;
    const { roomId, owner, partner, offer } = await createChatRoom(db);
    const other = await createChatUser(db);
    const { chatRooms } = await import("#app/db/schema/index.ts");
    const [second] = await db.insert(chatRooms).values({ offerId: offer.id, ownerId: owner.id, partnerId: other.id }).returning();
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    expect(await code(applyTradeStep(db, { roomId: second.id, userId: other.id, step: "agree" }))).toBe("offer_unavailable");
  });
});

describe("blocks and reports", () => {
  it("a block makes the room read-only for the blocked user, and unblocking restores it", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    await sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "before" });
    await blockRoomPartner(db, roomId, owner.id);
    expect(await db.select().from(blocks).where(and(eq(blocks.blockerId, owner.id), eq(blocks.blockedId, partner.id)))).toHaveLength(1);
    expect(await code(sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "after" }))).toBe("blocked");
    expect(await code(applyTradeStep(db, { roomId, userId: partner.id, step: "agree" }))).toBe("blocked");
    // Still readable for them.
    expect((await listMessages(db, roomId, partner.id)).map((m) => m.body)).toEqual(["before"]);
    const view = await getRoomView(db, roomId, partner.id);
    expect(view.blockedMe).toBe(true);
    expect((await getRoomView(db, roomId, owner.id)).blockedByMe).toBe(true);
    await unblockRoomPartner(db, roomId, owner.id);
    expect((await sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "again" })).created).toBe(true);
  });

  it("blocking the partner the offer is 取引中 with cancels that trade in the same transaction", async () => {
    const db = database.db;
    const { roomId, owner, partner, offer } = await createChatRoom(db);
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    const blocked = await blockRoomPartner(db, roomId, partner.id);
    expect(blocked.messages).toMatchObject([{ kind: "system", body: "cancel", senderId: partner.id }]);
    const [stored] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offer.id));
    expect(stored).toMatchObject({ status: "open", partnerId: null });
    const view = await getRoomView(db, roomId, owner.id);
    expect(view.progress).toMatchObject({ cancelled: true, agreed: false, ownerAgreed: false, partnerAgreed: false });
    expect(view.blockedMe).toBe(true);
    // Blocking again (or before any agreement) cancels nothing more.
    expect((await blockRoomPartner(db, roomId, partner.id)).messages).toEqual([]);
    const fresh = await createChatRoom(db);
    await applyTradeStep(db, { roomId: fresh.roomId, userId: fresh.owner.id, step: "agree" });
    expect((await blockRoomPartner(db, fresh.roomId, fresh.owner.id)).messages).toEqual([]);
    const [untouched] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, fresh.offer.id));
    expect(untouched).toMatchObject({ status: "open" });
    expect((await getRoomView(db, fresh.roomId, fresh.owner.id)).progress).toMatchObject({ ownerAgreed: true, cancelled: false });
  });

  it("either side can still キャンセル a trade across a block; other steps stay refused", async () => {
    const db = database.db;
    for (const canceller of ["blocked", "blocker"] as const) {
      const { roomId, owner, partner, offer } = await createChatRoom(db);
      await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
      await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
      // A block that is already there while the offer is 取引中 (e.g. made before blocks cancelled trades).
      await db.insert(blocks).values({ blockerId: owner.id, blockedId: partner.id });
      expect(await code(applyTradeStep(db, { roomId, userId: partner.id, step: "friend_requested" }))).toBe("blocked");
      expect(await code(applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" }))).toBe("blocked");
      const userId = canceller === "blocked" ? partner.id : owner.id;
      const cancelled = await applyTradeStep(db, { roomId, userId, step: "cancel" });
      expect(cancelled).toMatchObject({ offerStatus: "open", progress: { cancelled: true }, messages: [{ body: "cancel", senderId: userId }] });
      const [stored] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offer.id));
      expect(stored).toMatchObject({ status: "open", partnerId: null });
    }
  });

  it("reporting a message files a 'message' report for the admin list", async () => {
    const db = database.db;
    const { roomId, owner, partner } = await createChatRoom(db);
    const sent = await sendMessage(db, { roomId, userId: partner.id, clientId: newClientId(), body: "外部サイトで現金取引しませんか" });
    const { reportId } = await reportMessage(db, { reporterId: owner.id, messageId: sent.message.id, reason: "現金取引の勧誘" });
    const [row] = await db.select().from(reports).where(eq(reports.id, reportId));
    expect(row).toMatchObject({ reporterId: owner.id, targetType: "message", targetId: sent.message.id, reason: "現金取引の勧誘", status: "open" });
    expect(await code(reportMessage(db, { reporterId: owner.id, messageId: sent.message.id, reason: "   " }))).toBe("empty");
  });
});
