import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, profiles, tradeOffers } from "#app/db/schema/index.ts";
import { blockUser, isBlockedEitherWay, listBlockedUsers, unblockUser } from "#app/features/blocks/blocks.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { applyTradeStep, blockRoomPartner } from "#app/features/chat/chat.server.ts";
import { runOfferAction } from "#app/features/trades/offer-actions.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { createOffer, getOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let pair: { id: string }[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  pair = await catalogueCards(db, "◆◆", 2);
});
afterAll(async () => {
  await database?.close();
});

/** An offer of `owner` that `partner` is trading (取引中) in its chat room. */
async function negotiating() {
  const owner = await createUser(db);
  const partner = await createUser(db);
  const input = OfferInputSchema.parse({ give: [{ cardId: pair[0].id, count: 1 }], want: [{ cardId: pair[1].id, count: 1 }] });
  const { id: offerId } = await createOffer(db, owner.id, input);
  const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
  await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
  await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
  const status = async () => (await db.select({ status: tradeOffers.status }).from(tradeOffers).where(eq(tradeOffers.id, offerId)))[0].status;
  expect(await status()).toBe("negotiating");
  const lastSystemMessage = async () =>
    (await db.select({ kind: chatMessages.kind, body: chatMessages.body, seq: chatMessages.seq }).from(chatMessages).where(eq(chatMessages.roomId, roomId)))
      .filter((m) => m.kind === "system")
      .sort((a, b) => b.seq - a.seq)[0]?.body;
  return { owner, partner, offerId, roomId, status, lastSystemMessage };
}

describe("blocks: one rule, whichever screen", () => {
  it("a block from the offer page ends a 取引中 trade with the owner, as a block from the room does", async () => {
    const fromOffer = await negotiating();
    // The partner blocks the owner from the offer page (the form and the API share this path).
    expect(await runOfferAction(db, fromOffer.partner.id, fromOffer.offerId, "block")).toEqual({ action: "block" });
    expect(await fromOffer.status()).toBe("open");
    expect(await fromOffer.lastSystemMessage()).toBe("cancel");
    expect(await isBlockedEitherWay(db, fromOffer.owner.id, fromOffer.partner.id)).toBe(true);

    const fromRoom = await negotiating();
    const result = await blockRoomPartner(db, fromRoom.roomId, fromRoom.owner.id);
    expect(result.blockedId).toBe(fromRoom.partner.id);
    expect(result.messages.map((m) => m.body)).toEqual(["cancel"]);
    expect(await fromRoom.status()).toBe("open");
  });

  it("leaves other people's trades alone and hides each side's offers from the other", async () => {
    const trade = await negotiating();
    const bystander = await createUser(db);
    const { cancelled } = await blockUser(db, bystander.id, trade.owner.id);
    expect(cancelled).toEqual([]);
    expect(await trade.status()).toBe("negotiating");
    expect(await getOffer(db, trade.offerId, bystander.id)).toBeNull();
    await expect(blockUser(db, bystander.id, bystander.id)).rejects.toMatchObject({ code: "cannot_block_self", status: 400 });
  });

  it("a deleted account cannot be blocked, from the offer page or anywhere: not_found, nothing written", async () => {
    const reader = await createUser(db);
    const gone = await createUser(db);
    await db.update(profiles).set({ displayName: "退会したユーザー", deletedAt: new Date() }).where(eq(profiles.userId, gone.id));
    await expect(blockUser(db, reader.id, gone.id)).rejects.toMatchObject({ code: "not_found", status: 404 });
    expect(await isBlockedEitherWay(db, reader.id, gone.id)).toBe(false);
  });

  it("lists whom a user blocked, newest first, and 解除 lifts a block", async () => {
    const me = await createUser(db);
    const first = await createUser(db, { name: "最初の人" });
    const second = await createUser(db, { name: "次の人" });
    await blockUser(db, me.id, first.id);
    await blockUser(db, me.id, second.id);
    expect((await listBlockedUsers(db, me.id)).map((u) => u.displayName).sort()).toEqual(["最初の人", "次の人"].sort());
    await unblockUser(db, me.id, first.id);
    expect(await listBlockedUsers(db, me.id)).toEqual([{ userId: second.id, displayName: "次の人" }]);
    expect(await isBlockedEitherWay(db, me.id, first.id)).toBe(false);
  });
});
