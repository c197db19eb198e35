import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blocks, chatMessages, chatRooms, profiles } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { listMatches } from "#app/features/trades/matches.server.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { answersRarely, responseRecord } from "#app/features/users/response-record.server.ts";
import { listBlockedUsers } from "#app/features/blocks/blocks.server.ts";
import { listRoomsForUser } from "#app/features/chat/room-views.server.ts";
import { listOwnOffers } from "#app/features/trades/offers.server.ts";
import { readProfilePage } from "#app/features/profile/profile-page.server.ts";
import { getProfile } from "#app/features/users/users.server.ts";
import { createChatOffer, createChatUser, newClientId } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
});
afterAll(async () => {
  await database?.close();
});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/**
 * A room on one of `ownerId`'s offers, opened `openedMinutesAgo` ago by a new partner who wrote
 * at once (unless `partnerWrote` is false).
 */
async function room(ownerId: string, offerId: string, openedMinutesAgo: number, answeredAfterMinutes: number | null, partnerWrote = true) {
  const partner = await createChatUser(db);
  const createdAt = ago(openedMinutesAgo);
  const [row] = await db
    .insert(chatRooms)
    .values({
      offerId,
      ownerId,
      partnerId: partner.id,
      createdAt,
      ownerRepliedAt: answeredAfterMinutes === null ? null : new Date(createdAt.getTime() + answeredAfterMinutes * 60_000),
    })
    .returning({ id: chatRooms.id });
  if (partnerWrote) await db.insert(chatMessages).values({ roomId: row.id, seq: 1, senderId: partner.id, kind: "text", body: "交換お願いします", createdAt });
  return { id: row.id, partner };
}

describe("response record", () => {
  it("is set by the owner's first message only, and counts 返信率 and the median reply time over 30 days", async () => {
    const owner = await createChatUser(db);
    const offer = await createChatOffer(db, owner.id);
    // A fresh room: the partner writes first (no answer yet), then the owner answers once.
    const fresh = await room(owner.id, offer.id, 0, null, false);
    await sendMessage(db, { roomId: fresh.id, userId: fresh.partner.id, clientId: newClientId(), body: "交換お願いします" });
    const [beforeAnswer] = await db.select({ at: chatRooms.ownerRepliedAt }).from(chatRooms).where(eq(chatRooms.id, fresh.id));
    expect(beforeAnswer.at).toBeNull();
    await sendMessage(db, { roomId: fresh.id, userId: owner.id, clientId: newClientId(), body: "よろしくお願いします" });
    const [answered] = await db.select({ at: chatRooms.ownerRepliedAt }).from(chatRooms).where(eq(chatRooms.id, fresh.id));
    expect(answered.at).not.toBeNull();
    await sendMessage(db, { roomId: fresh.id, userId: owner.id, clientId: newClientId(), body: "二通目" });
    const [still] = await db.select({ at: chatRooms.ownerRepliedAt }).from(chatRooms).where(eq(chatRooms.id, fresh.id));
    expect(still.at!.getTime()).toBe(answered.at!.getTime());
    // Make the fresh room's answer a crafted 10 minutes, as the others are.
    const createdAt = ago(3 * 60);
    await db.update(chatRooms).set({ createdAt, ownerRepliedAt: new Date(createdAt.getTime() + 10 * 60_000) }).where(eq(chatRooms.id, fresh.id));
    await db.update(chatMessages).set({ createdAt }).where(eq(chatMessages.roomId, fresh.id));

    await room(owner.id, offer.id, 5 * 60, 30); // answered in 30 minutes
    await room(owner.id, offer.id, 2 * 24 * 60, 120); // answered in 2 hours
    await room(owner.id, offer.id, 3 * 24 * 60, null); // never answered, 3 days old: counted
    await room(owner.id, offer.id, 60, null); // 1 hour old, not answered yet: not counted yet
    await room(owner.id, offer.id, 40 * 24 * 60, 5); // older than 30 days: outside the window

    // Rooms that say nothing of the owner: nobody wrote, the owner blocked the partner, the
    // partner was suspended or left.
    await room(owner.id, offer.id, 3 * 24 * 60, null, false);
    const blocked = await room(owner.id, offer.id, 3 * 24 * 60, null);
    await db.insert(blocks).values({ blockerId: owner.id, blockedId: blocked.partner.id });
    const suspended = await room(owner.id, offer.id, 3 * 24 * 60, null);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.partner.id));
    const deleted = await room(owner.id, offer.id, 3 * 24 * 60, null);
    await db.update(profiles).set({ deletedAt: new Date() }).where(eq(profiles.userId, deleted.partner.id));

    const record = await responseRecord(db, owner.id);
    expect(record).toEqual({ rooms: 4, answered: 3, replyRate: 0.75, typicalReplySeconds: 30 * 60 });
    expect(answersRarely(record)).toBe(false);
    // Someone else's rooms and a player without rooms.
    expect(await responseRecord(db, fresh.partner.id)).toEqual({ rooms: 0, answered: 0, replyRate: null, typicalReplySeconds: null });
  });

  it("ranks マッチ of the same fit: who answers first, then the most recently active", async () => {
    const cards = await catalogueCards(db, "◆◆", 4);
    const [A, C] = cards;
    const input = (give: typeof cards, want: typeof cards) =>
      OfferInputSchema.parse({ give: give.map((c) => ({ cardId: c.id, count: 1 })), want: want.map((c) => ({ cardId: c.id, count: 1 })), comment: "" });
    const me = await createUser(db);
    await createOffer(db, me.id, input([A], [C]));
    const silent = await createUser(db);
    const answering = await createUser(db);
    const newcomer = await createUser(db);
    const oSilent = await createOffer(db, silent.id, input([C], [A]));
    const oAnswering = await createOffer(db, answering.id, input([C], [A]));
    const oNewcomer = await createOffer(db, newcomer.id, input([C], [A]));
    // The silent owner is the most recently active, but left 3 of 4 new rooms unanswered.
    for (const [user, hours] of [[silent, 1], [answering, 5], [newcomer, 3]] as const) {
      await db.update(profiles).set({ lastActiveAt: ago(hours * 60) }).where(eq(profiles.userId, user.id));
    }
    for (const answer of [null, null, null, 15]) await room(silent.id, oSilent.id, 2 * 24 * 60, answer);
    for (const answer of [20, 40, null]) await room(answering.id, oAnswering.id, 2 * 24 * 60, answer);
    // Two unanswered rooms are too few to rank anyone down.
    for (const answer of [null, null]) await room(newcomer.id, oNewcomer.id, 2 * 24 * 60, answer);

    const ids = (await listMatches(db, me.id)).map((m) => m.id);
    expect(ids).toEqual([oNewcomer.id, oAnswering.id, oSilent.id]);
  });

  it("is read for /profile in one round trip with the rest of the page, as the separate reads answer it", async () => {
    const owner = await createChatUser(db);
    const offer = await createChatOffer(db, owner.id);
    const answered = await room(owner.id, offer.id, 3 * 60, null, false);
    await sendMessage(db, { roomId: answered.id, userId: answered.partner.id, clientId: newClientId(), body: "交換お願いします" });
    await sendMessage(db, { roomId: answered.id, userId: owner.id, clientId: newClientId(), body: "よろしくお願いします" });
    const unanswered = await room(owner.id, offer.id, 3 * 24 * 60, null);
    await room(owner.id, offer.id, 60, null, false);
    await db.insert(blocks).values({ blockerId: owner.id, blockedId: unanswered.partner.id });
    const now = new Date();
    for (const userId of [owner.id, unanswered.partner.id]) {
      const page = await readProfilePage(db, userId, now);
      const profile = (await getProfile(db, userId))!;
      expect(page).toEqual({
        profile: {
          email: profile.email,
          displayName: profile.displayName,
          friendId: profile.friendId,
          completedTrades: profile.completedTrades,
          memberSince: profile.memberSince.toISOString(),
          emailVerified: profile.emailVerified,
        },
        record: await responseRecord(db, userId, now),
        chatRooms: await listRoomsForUser(db, userId),
        myOffers: await listOwnOffers(db, userId),
        blockedUsers: await listBlockedUsers(db, userId),
      });
    }
    const page = (await readProfilePage(db, owner.id, now))!;
    expect(page.record).toMatchObject({ rooms: 1, answered: 1 });
    expect(page.chatRooms).toHaveLength(3);
    expect(page.chatRooms[0]).toMatchObject({ id: answered.id, role: "owner", lastMessage: { kind: "text", body: "よろしくお願いします", senderId: owner.id } });
    expect(page.myOffers.map((o) => o.id)).toEqual([offer.id]);
    expect(page.blockedUsers).toEqual([{ userId: unanswered.partner.id, displayName: expect.any(String) }]);
    expect(await readProfilePage(db, "no-such-user", now)).toBeNull();
  });
});
