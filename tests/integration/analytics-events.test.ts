import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { applyTradeStep, sendMessage } from "#app/features/chat/chat.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { computeDay } from "#app/features/analytics/rollup.server.ts";
import { tokyoDay } from "#app/features/analytics/salt.server.ts";
import { contentThatBringsTraders, tradeFunnel } from "#app/features/analytics/dashboard.server.ts";
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

  it("counts マッチ where it happens: an offer that fits an open one matches both when it is posted, before anyone presses 交渉する", async () => {
    const cards = await catalogueCards(db, "◆◆◆", 2);
    const first = await createUser(db);
    const second = await createUser(db);
    const offer = (give: string, want: string) => OfferInputSchema.parse({ give: [{ cardId: give, count: 1 }], want: [{ cardId: want, count: 1 }], comment: "" });
    const { id: alone } = await createOffer(db, first.id, offer(cards[0].id, cards[1].id));
    // Nothing fits the first offer yet: no match.
    expect((await eventsOf(alone)).map((e) => e.kind)).toEqual(["offer_posted"]);
    const { id: fitting } = await createOffer(db, second.id, offer(cards[1].id, cards[0].id));
    // The second offer's own events share its transaction's time: compared as sets.
    expect((await eventsOf(alone)).map((e) => e.kind).sort()).toEqual(["matched", "offer_posted"]);
    expect((await eventsOf(fitting)).map((e) => e.kind).sort()).toEqual(["matched", "offer_posted"]);

    await computeDay(db, tokyoDay());
    const rows = await rowsOf<{ offer_id: string; matched: boolean; room_opened: boolean }>(
      db,
      sql`select offer_id, matched_at is not null as matched, room_opened_at is not null as room_opened from analytics_offer_funnel where offer_id in (${alone}, ${fitting})`,
    );
    expect(rows.map((r) => [r.matched, r.room_opened])).toEqual([
      [true, false],
      [true, false],
    ]);
    // So マッチ is a step of its own: more offers matched than opened a chat.
    const today = tokyoDay();
    const funnel = await tradeFunnel(db, { from: today, to: today });
    const count = (step: string) => funnel.steps.find((s) => s.step === step)!.count;
    expect(count("matched")).toBeGreaterThan(count("room_opened"));
  });

  it("トレードにつながったコンテンツ names the articles and deck recipes by their titles", async () => {
    const today = tokyoDay();
    const [article] = await rowsOf<{ id: string }>(
      db,
      sql`insert into articles (slug, title, category, source, html, is_public) values ('article-0f953efd', '交換で揃えるデッキ', 'guide', '', '', true) returning id`,
    );
    await rowsOf(db, sql`insert into decks (slug, name, tier, category, is_public) values ('Pika_Deck', 'ピカチュウexデッキ', 1, 'deck-recipe', true) returning id`);
    for (const [path, posted] of [
      ["/articles/article-0f953efd", 3],
      [`/articles/${article.id}`, 2],
      ["/deck-recipes/pika_deck", 1],
      ["/articles/gone-article", 1],
    ] as const) {
      await rowsOf(db, sql`insert into analytics_daily (day, dim, value, visitors, posted_visitors) values (${today}, 'content', ${path}, 5, ${posted}) returning day`);
    }
    const content = await contentThatBringsTraders(db, { from: today, to: today });
    expect(content.map((c) => [c.path, c.title])).toEqual([
      ["/articles/article-0f953efd", "交換で揃えるデッキ"],
      [`/articles/${article.id}`, "交換で揃えるデッキ"],
      ["/articles/gone-article", null],
      ["/deck-recipes/pika_deck", "ピカチュウexデッキ"],
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
