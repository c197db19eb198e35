import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { rowsOf } from "../../app/db/sql.server";
import { seedCatalogue } from "../../app/features/cards/catalogue.server";
import { applyTradeStep, sendMessage } from "../../app/features/chat/chat.server";
import { createOffer, openChatRoomForOffer } from "../../app/features/trades/offers.server";
import { OfferInputSchema } from "../../app/features/trades/trades.schema";
import { computeDay } from "../../app/features/analytics/rollup.server";
import { tokyoDay } from "../../app/features/analytics/salt.server";
import { tradeFunnel } from "../../app/features/analytics/dashboard.server";
import { catalogueCards, createUser } from "../support/factories";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

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

const eventsOf = async (offerId: string) =>
  rowsOf<{ kind: string; user_id: string }>(db, sql`select kind, user_id from analytics_events where offer_id = ${offerId} order by ts, kind`);

describe("product events", () => {
  it("are written with each change of a trade, with the offer and the acting user, and feed the funnel", async () => {
    const cards = await catalogueCards(db, "◆◆", 2);
    const owner = await createUser(db);
    const partner = await createUser(db);
    const input = OfferInputSchema.parse({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" });
    const { id: offerId } = await createOffer(db, owner.id, input);
    expect(await eventsOf(offerId)).toEqual([{ kind: "offer_posted", user_id: owner.id }]);

    const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
    // Opening the same room again is not a second match.
    await openChatRoomForOffer(db, { offerId, userId: partner.id });
    await sendMessage(db, { roomId, userId: partner.id, clientId: randomUUID(), body: "よろしくお願いします" });
    await sendMessage(db, { roomId, userId: owner.id, clientId: randomUUID(), body: "こちらこそ" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "game_trade_requested" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "complete" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "complete" });

    const kinds = (await eventsOf(offerId)).map((e) => `${e.kind}:${e.user_id === owner.id ? "owner" : "partner"}`);
    expect(kinds).toEqual([
      "offer_posted:owner",
      "matched:partner",
      "room_opened:partner",
      "terms_agreed:partner",
      "friend_request_sent:owner",
      "game_trade_sent:partner",
      "trade_completed:partner",
    ]);

    await computeDay(db, tokyoDay());
    const today = tokyoDay();
    const funnel = await tradeFunnel(db, { from: today, to: today });
    expect(funnel.steps.map((s) => [s.step, s.count])).toEqual([
      ["posted", 1],
      ["matched", 1],
      ["room_opened", 1],
      ["agreed", 1],
      ["completed", 1],
    ]);
  });

  it("a failed change writes no event (same transaction)", async () => {
    const cards = await catalogueCards(db, "◆◆", 2);
    const noFriendId = await createUser(db, { friendId: null });
    const input = OfferInputSchema.parse({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" });
    const before = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from analytics_events where user_id = ${noFriendId.id}`);
    await expect(createOffer(db, noFriendId.id, input)).rejects.toThrow();
    const after = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from analytics_events where user_id = ${noFriendId.id}`);
    expect(after[0].n).toBe(before[0].n);
  });

  it("a cancelled trade is recorded with the one who cancelled", async () => {
    const cards = await catalogueCards(db, "◆◆", 2);
    const owner = await createUser(db);
    const partner = await createUser(db);
    const input = OfferInputSchema.parse({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" });
    const { id: offerId } = await createOffer(db, owner.id, input);
    const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "cancel" });
    expect((await eventsOf(offerId)).at(-1)).toEqual({ kind: "trade_cancelled", user_id: partner.id });
  });
});
