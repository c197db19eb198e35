import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, profiles, tradeOffers, users, wantedCards } from "#app/db/schema/index.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { applyTradeStep, markRead, sendMessage } from "#app/features/chat/chat.server.ts";
import { reportOffer, resolveReport } from "#app/features/moderation/moderation.server.ts";
import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notifyChatMessage,
  notifyExpiringOffers,
} from "#app/features/notifications/notifications.server.ts";
import { addWantedCard, addWantedCards, listWantedCards, removeWantedCard } from "#app/features/notifications/want-list.server.ts";
import { setCardCounts } from "#app/features/collection/collection.server.ts";
import { readNotificationsPage } from "#app/features/notifications/notifications-page.server.ts";
import { NOTIFICATION_KINDS } from "#app/features/notifications/types.ts";
import { getNotificationPreferences } from "#app/features/push/preferences.server.ts";
import { listRoomsForUser } from "#app/features/chat/room-views.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { addTradeRuleChange } from "#app/features/trades/trade-rules.server.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { newClientId } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let pair: { id: string; name: string }[];
let other: { id: string; name: string }[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  pair = await catalogueCards(db, "◆◆", 4);
  other = await catalogueCards(db, "◆◆◆", 3);
});
afterAll(async () => {
  await database?.close();
});

const offerInput = (give: string, want: string) => OfferInputSchema.parse({ give: [{ cardId: give, count: 1 }], want: [{ cardId: want, count: 1 }] });

async function inbox(userId: string) {
  return (await listNotifications(db, userId)).items;
}

/** Owner with an offer, a partner who pressed 交渉する on it. */
async function roomBetween() {
  const owner = await createUser(db);
  const partner = await createUser(db);
  const { id: offerId } = await createOffer(db, owner.id, offerInput(pair[0].id, pair[1].id));
  const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
  return { owner, partner, offerId, roomId };
}

const send = (roomId: string, userId: string, body: string) => sendMessage(db, { roomId, userId, clientId: newClientId(), body });

describe("notifications: event rules", () => {
  it("交渉する notifies the offer's owner once, linking to the room", async () => {
    const { owner, partner, roomId, offerId } = await roomBetween();
    await openChatRoomForOffer(db, { offerId, userId: partner.id });
    const items = await inbox(owner.id);
    expect(items.map((n) => [n.kind, n.href, n.actorName, n.read])).toEqual([["response", `/chat/${roomId}`, partner.name, false]]);
    expect(await inbox(partner.id)).toEqual([]);
  });

  it("chat messages make one notification per room until read, then a new one", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await markAllNotificationsRead(db, owner.id);
    await send(roomId, partner.id, "こんにちは");
    await send(roomId, partner.id, "まだいますか？");
    const [message] = (await inbox(owner.id)).filter((n) => n.kind === "message");
    expect(message).toMatchObject({ count: 2, read: false, href: `/chat/${roomId}`, actorName: partner.name });
    expect(await countUnreadNotifications(db, owner.id)).toBe(1);
    // Each message queued its delivery: the room's first (written in a transaction with the room's
    // opening) and the next (written in the message's own statement).
    const queued = await db.execute(sql`select dedupe_key from delivery_outbox where kind = 'notify' and payload->>'id' = ${message.id} order by id`);
    expect((queued as unknown as { rows: { dedupe_key: string }[] }).rows.map((r) => r.dedupe_key)).toEqual([`notify:${message.id}:1`, `notify:${message.id}:2`]);
    // The sender hears nothing of their own messages.
    expect((await inbox(partner.id)).filter((n) => n.kind === "message")).toEqual([]);

    // Reading up to the last message clears the room's notification (everywhere it is counted).
    const [{ lastSeq }] = await db.execute(sql`select last_seq as "lastSeq" from chat_rooms where id = ${roomId}`).then((r) => (r as unknown as { rows: { lastSeq: number }[] }).rows);
    await markRead(db, roomId, owner.id, lastSeq - 1);
    expect(await countUnreadNotifications(db, owner.id)).toBe(1);
    await markRead(db, roomId, owner.id, lastSeq);
    expect(await countUnreadNotifications(db, owner.id)).toBe(0);

    await send(roomId, partner.id, "お返事まってます");
    const messages = (await inbox(owner.id)).filter((n) => n.kind === "message");
    expect(messages.map((n) => [n.count, n.read])).toEqual([[1, false], [2, true]]);
  });

  it("trade steps notify the partner; completing tells both sides' partner", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await markAllNotificationsRead(db, owner.id);
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "game_trade_requested" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "complete" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "complete" });
    const steps = async (userId: string) => (await inbox(userId)).filter((n) => n.kind === "step").map((n) => n.detail).sort();
    expect(await steps(owner.id)).toEqual(["agree", "complete", "game_trade_requested"]);
    expect(await steps(partner.id)).toEqual(["agree", "complete", "friend_requested"]);
  });

  it("キャンセル notifies the partner", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await applyTradeStep(db, { roomId, userId: partner.id, step: "cancel" });
    expect((await inbox(owner.id)).filter((n) => n.kind === "step").map((n) => n.detail)).toEqual(["cancel"]);
  });

  it("nothing reaches a user who blocked the sender, nor one the sender blocked", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await markAllNotificationsRead(db, owner.id);
    await blockUser(db, partner.id, owner.id);
    // The partner blocked the owner: the owner can no longer write, and the partner's steps stay silent too.
    await applyTradeStep(db, { roomId, userId: partner.id, step: "cancel" }).catch(() => undefined);
    expect(await countUnreadNotifications(db, owner.id)).toBe(0);

    const a = await roomBetween();
    await blockUser(db, a.owner.id, a.partner.id);
    const owner2Before = await countUnreadNotifications(db, a.owner.id);
    // The owner blocked the partner; a message from the partner is refused and nothing is notified.
    await expect(send(a.roomId, a.partner.id, "こんにちは")).rejects.toMatchObject({ code: "blocked" });
    expect(await countUnreadNotifications(db, a.owner.id)).toBe(owner2Before);
    // A new offer matching a blocked user's offer does not notify them.
    const matcher = await createUser(db);
    await blockUser(db, matcher.id, a.owner.id);
    await createOffer(db, matcher.id, offerInput(pair[1].id, pair[0].id));
    expect((await inbox(a.owner.id)).filter((n) => n.kind === "match")).toEqual([]);
  });

  it("a deleted account leaves no notification behind and causes none", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await send(roomId, partner.id, "こんにちは");
    expect((await inbox(owner.id)).length).toBe(2);
    await db.delete(users).where(eq(users.id, partner.id));
    expect(await inbox(owner.id)).toEqual([]);
    expect(await countUnreadNotifications(db, owner.id)).toBe(0);
  });

  it("an account deleted in the app (its row kept as 退会したユーザー) is never notified and causes no notification", async () => {
    const collector = await createUser(db);
    await db.insert(wantedCards).values({ userId: collector.id, cardId: other[2].id });
    await db.update(profiles).set({ deletedAt: new Date() }).where(eq(profiles.userId, collector.id));
    const poster = await createUser(db);
    await createOffer(db, poster.id, OfferInputSchema.parse({ give: [{ cardId: other[2].id, count: 1 }], want: [{ cardId: other[0].id, count: 1 }] }));
    expect(await inbox(collector.id)).toEqual([]);

    const { owner, partner, roomId } = await roomBetween();
    await markAllNotificationsRead(db, owner.id);
    await db.update(profiles).set({ deletedAt: new Date() }).where(eq(profiles.userId, partner.id));
    await notifyChatMessage(db, { roomId, senderId: partner.id, recipientId: owner.id });
    expect(await countUnreadNotifications(db, owner.id)).toBe(0);
  });

  it("ほしいカード follows the trade rules an admin changes: a rarity opened now may be added at once", async () => {
    const [card] = (await catalogueCards(db, "☆☆☆", 12)).filter((c) => !c.id.startsWith("A1-"));
    const collector = await createUser(db);
    await expect(addWantedCard(db, collector.id, card.id)).rejects.toMatchObject({ code: "not_tradeable" });
    const admin = await createUser(db);
    const now = new Date(Date.now() - 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "rarity", target: "☆☆☆", tradeable: true, effectiveAt: now, note: "☆☆☆を開放" }), admin.id);
    try {
      await addWantedCard(db, collector.id, card.id);
      expect((await listWantedCards(db, collector.id)).map((w) => w.cardId)).toEqual([card.id]);
    } finally {
      // The rules are the whole site's: closed again (the later change of the same moment wins) for the other tests.
      await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "rarity", target: "☆☆☆", tradeable: false, effectiveAt: now, note: "☆☆☆を戻す" }), admin.id);
    }
  });

  it("マッチ: a new offer notifies owners of open offers it pairs with (same rarity), once", async () => {
    const owner = await createUser(db);
    await createOffer(db, owner.id, offerInput(pair[2].id, pair[3].id));
    const stranger = await createUser(db);
    // Gives what the owner wants and wants what the owner gives: a match.
    const { id: theirs } = await createOffer(db, stranger.id, offerInput(pair[3].id, pair[2].id));
    const matches = (await inbox(owner.id)).filter((n) => n.kind === "match");
    expect(matches.map((n) => [n.href, n.actorName])).toEqual([[`/trades/${theirs}`, stranger.name]]);
    // The poster of the later offer is not told about their own post.
    expect((await inbox(stranger.id)).filter((n) => n.kind === "match")).toEqual([]);
    // An offer of another rarity that only wants the owner's card is no match.
    const third = await createUser(db);
    await createOffer(db, third.id, offerInput(other[0].id, other[1].id));
    expect((await inbox(owner.id)).filter((n) => n.kind === "match")).toHaveLength(1);
  });

  it("ほしいカード: an offer giving a wanted card notifies the player once per offer", async () => {
    const collector = await createUser(db);
    await db.insert(wantedCards).values([
      { userId: collector.id, cardId: other[0].id },
      { userId: collector.id, cardId: other[1].id },
    ]);
    const poster = await createUser(db);
    const both = OfferInputSchema.parse({ give: [{ cardId: other[0].id, count: 1 }, { cardId: other[1].id, count: 1 }], want: [{ cardId: other[2].id, count: 1 }] });
    // Two wanted cards given by one offer: one notification.
    const { id: offerId } = await createOffer(db, poster.id, both);
    const wants = (await inbox(collector.id)).filter((n) => n.kind === "want");
    expect(wants).toHaveLength(1);
    expect(wants[0]).toMatchObject({ href: `/trades/${offerId}`, actorName: poster.name });
    expect([other[0].name, other[1].name]).toContain(wants[0].cardName);
  });

  it("an offer expiring within 12 hours reminds its owner once per expiry", async () => {
    const owner = await createUser(db);
    const { id: offerId } = await createOffer(db, owner.id, offerInput(pair[0].id, pair[1].id));
    await notifyExpiringOffers(db);
    expect((await inbox(owner.id)).filter((n) => n.kind === "expiring")).toEqual([]);
    await db.update(tradeOffers).set({ expiresAt: new Date(Date.now() + 3 * 3600_000) }).where(eq(tradeOffers.id, offerId));
    await notifyExpiringOffers(db);
    await notifyExpiringOffers(db);
    expect((await inbox(owner.id)).filter((n) => n.kind === "expiring").map((n) => n.href)).toEqual([`/trades/${offerId}`]);
  });

  it("a resolved report tells the reporter the outcome", async () => {
    const owner = await createUser(db);
    const reporter = await createUser(db);
    const { id: offerId } = await createOffer(db, owner.id, offerInput(pair[0].id, pair[1].id));
    const { reportId } = await reportOffer(db, reporter.id, offerId, "不適切なコメント");
    await resolveReport(db, reportId, "closeOffer");
    const [outcome] = (await inbox(reporter.id)).filter((n) => n.kind === "report");
    expect(outcome).toMatchObject({ detail: "actioned", read: false });
    // The reported owner is not told who reported them.
    expect((await inbox(owner.id)).filter((n) => n.kind === "report")).toEqual([]);
  });

  it("read marks are per owner: someone else's id changes nothing", async () => {
    const { owner, partner } = await roomBetween();
    const [item] = await inbox(owner.id);
    expect(await markNotificationRead(db, partner.id, item.id)).toBe(false);
    expect((await inbox(owner.id))[0].read).toBe(false);
    expect(await markNotificationRead(db, owner.id, item.id)).toBe(true);
    const [row] = await db.select({ readAt: notifications.readAt }).from(notifications).where(and(eq(notifications.id, item.id)));
    expect(row.readAt).not.toBeNull();
  });

  it("ほしいカード list: tradeable cards only, added once, removed; an offer then notifies only players still wanting", async () => {
    const player = await createUser(db);
    await expect(addWantedCard(db, player.id, "no-such-card")).rejects.toMatchObject({ code: "card_not_found", status: 404 });
    const [untradeable] = (await db.execute(
      sql`select c.id from cards c join rarities r on r.code = c.rarity where not r.tradeable limit 1`,
    ).then((r) => (r as unknown as { rows: { id: string }[] }).rows));
    expect(untradeable).toBeTruthy();
    await expect(addWantedCard(db, player.id, untradeable.id)).rejects.toMatchObject({ code: "not_tradeable", status: 400 });

    await addWantedCard(db, player.id, pair[2].id);
    await addWantedCard(db, player.id, pair[2].id);
    await addWantedCard(db, player.id, pair[3].id);
    expect((await listWantedCards(db, player.id)).map((c) => c.cardId).sort()).toEqual([pair[2].id, pair[3].id].sort());
    await removeWantedCard(db, player.id, pair[3].id);
    expect((await listWantedCards(db, player.id)).map((c) => c.cardId)).toEqual([pair[2].id]);
    // Each with its print: the same name and rarity is printed in several sets.
    const [printed] = (await db.execute(sql`select set_code, number from cards where id = ${pair[2].id}`).then((r) => (r as unknown as { rows: { set_code: string; number: number }[] }).rows));
    expect(printed.set_code).toBeTruthy();
    expect(await listWantedCards(db, player.id)).toMatchObject([{ cardId: pair[2].id, setCode: printed.set_code, number: printed.number }]);

    const poster = await createUser(db);
    await createOffer(db, poster.id, offerInput(pair[3].id, pair[1].id));
    expect((await inbox(player.id)).filter((n) => n.kind === "want")).toEqual([]);
    const { id: offerId } = await createOffer(db, poster.id, offerInput(pair[2].id, pair[1].id));
    expect((await inbox(player.id)).filter((n) => n.kind === "want").map((n) => [n.href, n.cardName])).toEqual([[`/trades/${offerId}`, pair[2].name]]);
  });

  it("a want the collection has met sends no alert and says so on the list; lowering the count again (元に戻す) brings it back", async () => {
    const player = await createUser(db);
    const [card, other_, second] = [pair[2], pair[1], pair[3]];
    await addWantedCard(db, player.id, card.id);
    // The deck case: one copy owned already, a second one wanted.
    await setCardCounts(db, player.id, [{ cardId: second.id, count: 1 }]);
    await addWantedCard(db, player.id, second.id);
    const alerts = async () => (await inbox(player.id)).filter((n) => n.kind === "want").length;
    const offerGiving = async (cardId: string) => createOffer(db, (await createUser(db)).id, offerInput(cardId, other_.id));

    await offerGiving(second.id);
    expect(await alerts()).toBe(1);
    await setCardCounts(db, player.id, [{ cardId: card.id, count: 1 }, { cardId: second.id, count: 2 }]);
    expect((await listWantedCards(db, player.id)).map((c) => [c.cardId, c.met]).sort()).toEqual([[card.id, true], [second.id, true]].sort());
    await offerGiving(card.id);
    await offerGiving(second.id);
    expect(await alerts()).toBe(1);
    // The tap taken back: the want stands again, nothing was deleted.
    await setCardCounts(db, player.id, [{ cardId: card.id, count: 0 }]);
    expect((await listWantedCards(db, player.id)).find((c) => c.cardId === card.id)?.met).toBe(false);
    await offerGiving(card.id);
    expect(await alerts()).toBe(2);
    // A met want added again (a deck needing one more copy) is wanted again from today's count.
    expect(await addWantedCards(db, player.id, [second.id])).toMatchObject({ added: [second.id], already: [] });
    expect((await listWantedCards(db, player.id)).find((c) => c.cardId === second.id)?.met).toBe(false);
    await offerGiving(second.id);
    expect(await alerts()).toBe(3);
    expect(await addWantedCards(db, player.id, [second.id])).toMatchObject({ added: [], already: [second.id] });
  });

  it("the settings page says what the inbox shows: a kind the player never chose is shown, though every kind they chose is hidden", async () => {
    const player = await createUser(db);
    const hidden = Object.fromEntries(NOTIFICATION_KINDS.filter((kind) => kind !== "friend").map((kind) => [kind, { site: "off" }]));
    await db.execute(sql`insert into notification_preferences (user_id, channels) values (${player.id}, ${JSON.stringify(hidden)}::jsonb)`);
    await db.execute(sql`insert into notifications (user_id, kind) values (${player.id}, 'friend'), (${player.id}, 'response')`);
    const { channels } = await getNotificationPreferences(db, player.id);
    const shown = (await listNotifications(db, player.id)).items.map((n) => n.kind);
    expect(shown).toEqual(["friend"]);
    expect(await countUnreadNotifications(db, player.id)).toBe(1);
    expect(NOTIFICATION_KINDS.filter((kind) => channels[kind].site === "on")).toEqual(shown);
  });

  it("/notifications reads its page, rooms and want list in one round trip, as the separate reads answer them", async () => {
    const { owner, partner, roomId } = await roomBetween();
    await send(roomId, partner.id, "こんにちは");
    await addWantedCard(db, owner.id, pair[2].id);
    await addWantedCard(db, owner.id, pair[3].id);
    const page = await readNotificationsPage(db, owner.id);
    expect(page).toEqual({ ...(await listNotifications(db, owner.id)), chatRooms: await listRoomsForUser(db, owner.id, 20), wantedCards: await listWantedCards(db, owner.id) });
    expect(page.items.map((n) => n.kind)).toEqual(["message", "response"]);
    expect(page.chatRooms).toMatchObject([{ id: roomId, role: "owner", unread: 1, lastMessage: { body: "こんにちは" } }]);
    expect(page.wantedCards).toHaveLength(2);
    // A page of one, then the one after it.
    const first = await readNotificationsPage(db, owner.id, { limit: 1 });
    expect(first.items.map((n) => n.kind)).toEqual(["message"]);
    expect(first.nextCursor).toBe((await listNotifications(db, owner.id, { limit: 1 })).nextCursor);
    const [at, id] = [first.nextCursor!.slice(0, first.nextCursor!.lastIndexOf("_")), first.nextCursor!.slice(first.nextCursor!.lastIndexOf("_") + 1)];
    const second = await readNotificationsPage(db, owner.id, { limit: 1, before: { at, id } });
    expect(second).toMatchObject({ items: [{ kind: "response" }], nextCursor: null });
    expect(await readNotificationsPage(db, partner.id)).toMatchObject({ items: [], chatRooms: [{ id: roomId, role: "partner", unread: 0 }], wantedCards: [] });
  });
});
