import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTradeStep } from "#app/features/chat/chat.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { mirrorOffersAfterTrade } from "#app/features/trades/mirror-offers.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
type Card = { id: string };
let cards: Card[];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  cards = await catalogueCards(database.db, "◆◆◆", 6);
});
afterAll(async () => {
  await database?.close();
});

const offer = (give: Card[], want: Card[]) => OfferInputSchema.parse({ give: give.map((c) => ({ cardId: c.id, count: 1 })), want: want.map((c) => ({ cardId: c.id, count: 1 })) });

describe("mirror offers after a completed trade", () => {
  it("lists each side's own open offers that the trade made pointless, only once the trade is complete", async () => {
    const db = database.db;
    const [a, b, c, d, e, f] = cards;
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id: offerId } = await createOffer(db, owner.id, offer([a], [b]));
    // The partner's mirror image (gives b, wants a), one unrelated offer, and the owner's duplicate.
    const { id: partnerMirror } = await createOffer(db, partner.id, offer([b, c], [a]));
    await createOffer(db, partner.id, offer([d], [e]));
    const { id: ownerDuplicate } = await createOffer(db, owner.id, offer([a, f], [b]));
    const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });

    expect(await mirrorOffersAfterTrade(db, roomId, partner.id)).toEqual([]);
    const step = (userId: string, name: "agree" | "friend_requested" | "game_trade_requested" | "complete") => applyTradeStep(db, { roomId, userId, step: name });
    await step(owner.id, "agree");
    await step(partner.id, "agree");
    await step(partner.id, "friend_requested");
    await step(owner.id, "game_trade_requested");
    await step(owner.id, "complete");
    expect(await mirrorOffersAfterTrade(db, roomId, partner.id)).toEqual([]);
    await step(partner.id, "complete");

    expect((await mirrorOffersAfterTrade(db, roomId, partner.id)).map((o) => o.id)).toEqual([partnerMirror]);
    expect((await mirrorOffersAfterTrade(db, roomId, owner.id)).map((o) => o.id)).toEqual([ownerDuplicate]);
    const [listed] = await mirrorOffersAfterTrade(db, roomId, partner.id);
    expect(listed.give.map((x) => x.cardId).sort()).toEqual([b.id, c.id].sort());
    expect(listed.want.map((x) => x.cardId)).toEqual([a.id]);
    // A stranger learns nothing.
    const stranger = await createUser(db);
    await expect(mirrorOffersAfterTrade(db, roomId, stranger.id)).rejects.toThrow();
  });
});
