import { and, count, eq, sql } from "drizzle-orm";
import { BlockError } from "#app/features/blocks/errors.ts";
import { ModerationError } from "#app/features/moderation/errors.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { randomBytes } from "node:crypto";
import { blocks, cardPacks, cards, chatMessages, chatRooms, profiles, rarities, reports, tradeOfferCards, tradeOffers } from "#app/db/schema/index.ts";
import { applyTradeStep, blockRoomPartner, ChatError, sendMessage, unblockRoomPartner } from "#app/features/chat/chat.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { bumpOffer, closeOffer, createOffer, deleteOffer, getOffer, listOwnOffers, markOfferCompleted, openChatRoomForOffer, TradeError, updateOffer } from "#app/features/trades/offers.server.ts";
import { decodeCursor, encodeCursor, listBoard, offerCountsForCard } from "#app/features/trades/board.server.ts";
import { listMatchListPage, listMatchPage, listMatches, parseMatchPage } from "#app/features/trades/matches.server.ts";
import { blockUser, unblockUser } from "#app/features/blocks/blocks.server.ts";
import { listReports, reportOffer, resolveReport } from "#app/features/moderation/moderation.server.ts";
import { completeTradeFromChat, startNegotiationFromChat } from "#app/features/trades/negotiation.server.ts";
import type { TradeErrorCode } from "#app/features/trades/errors.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { MATCH_PAGE_SIZE, MAX_OPEN_OFFERS, POSTS_PER_HOUR, RESPONSES_PER_HOUR } from "#app/features/trades/rules.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { rowsOf } from "#app/db/sql.server.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
type Card = { id: string; name: string; rarity: string };
let d2: Card[]; // ◆◆
let d3: Card[]; // ◆◆◆
let d4: Card[]; // ◆◆◆◆
let sr: Card[]; // ☆☆☆ (not tradeable by default)

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  d2 = await catalogueCards(db, "◆◆", 12);
  d3 = await catalogueCards(db, "◆◆◆", 12);
  d4 = await catalogueCards(db, "◆◆◆◆", 6);
  sr = await catalogueCards(db, "☆☆☆", 2);
});
afterAll(async () => {
  await database?.close();
});

const offer = (give: Card[], want: Card[], comment = "") =>
  OfferInputSchema.parse({ give: give.map((c) => ({ cardId: c.id, count: 1 })), want: want.map((c) => ({ cardId: c.id, count: 1 })), comment });

async function rejects(promise: Promise<unknown>, code: TradeErrorCode) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(TradeError);
  expect((error as TradeError).code).toBe(code);
  return error as TradeError;
}

const offerCount = async (ownerId: string) =>
  (await db.select({ n: count() }).from(tradeOffers).where(eq(tradeOffers.ownerId, ownerId)))[0].n;

async function rowOf(offerId: string) {
  const [row] = await db.select().from(tradeOffers).where(eq(tradeOffers.id, offerId));
  const cardRows = await db.select().from(tradeOfferCards).where(eq(tradeOfferCards.offerId, offerId));
  return { ...row, cards: cardRows.map((c) => `${c.side}:${c.cardId}:${c.count}`).sort() };
}

describe("posting an offer", () => {
  it("stores the cards of both sides and the comment, open for 72 hours", async () => {
    const user = await createUser(db);
    const input = OfferInputSchema.parse({
      give: [{ cardId: d2[0].id, count: 2 }],
      want: [{ cardId: d2[1].id, count: 1 }, { cardId: d3[0].id, count: 1 }],
      comment: "  よろしく\r\nお願いします  ",
    });
    const { id } = await createOffer(db, user.id, input);
    const row = await rowOf(id);
    expect(row.status).toBe("open");
    expect(row.comment).toBe("よろしく\nお願いします");
    expect(row.cards).toEqual([`give:${d2[0].id}:2`, `want:${d2[1].id}:1`, `want:${d3[0].id}:1`].sort());
    const hours = (row.expiresAt.getTime() - row.createdAt.getTime()) / 3600_000;
    expect(Math.round(hours)).toBe(72);
    const view = await getOffer(db, id);
    expect(view).toMatchObject({ status: "open", ownerName: user.name, ownerCompletedTrades: 0 });
    expect(view!.give.map((c) => c.cardId)).toEqual([d2[0].id]);
  });

  it("accepts only tradeable rarities, following the admin-editable flag", async () => {
    const user = await createUser(db);
    const error = await rejects(createOffer(db, user.id, offer([sr[0]], [sr[1]])), "not_tradeable");
    expect(error.params.name).toBe(sr[0].name);
    await rejects(createOffer(db, user.id, offer([d2[0]], [{ id: "NO-SUCH-CARD", name: "", rarity: "◆◆" }])), "unknown_card");
    expect(await offerCount(user.id)).toBe(0);
    // A rarity of this test's own (no other test reads or changes it), not tradeable at first.
    const code = `T${randomBytes(3).toString("hex")}`;
    await db.insert(rarities).values({ code, sourceCode: code, labelJa: code, labelEn: code, rank: 99, tradeable: false });
    const own = [`${code}-1`, `${code}-2`].map((id) => ({ id, name: `テスト${id}`, rarity: code }));
    await db.insert(cards).values(own);
    await db.insert(cardPacks).values(own.map((c) => ({ cardId: c.id, packId: "dialga" })));
    await rejects(createOffer(db, user.id, offer([own[0]], [own[1]])), "not_tradeable");
    // An admin allows trades of that rarity (the game changed its rules): the same offer goes through.
    await db.update(rarities).set({ tradeable: true }).where(eq(rarities.code, code));
    await createOffer(db, user.id, offer([own[0]], [own[1]]));
    expect(await offerCount(user.id)).toBe(1);
  });

  it("refuses cards the trade picker hides: the Shining High pack (docs/product-rules.md §9)", async () => {
    const user = await createUser(db);
    const [shiny] = await db.execute(sql`
      select c.id from cards c join rarities r on r.code = c.rarity and r.tradeable
      where exists (select 1 from card_packs cp where cp.card_id = c.id and cp.pack_id = 'shining-high')
        and not exists (select 1 from card_packs cp where cp.card_id = c.id and cp.pack_id <> 'shining-high')
        and c.rarity = '◆◆'
      limit 1`).then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    expect(shiny).toBeDefined();
    await rejects(createOffer(db, user.id, offer([{ id: shiny.id, name: "", rarity: "◆◆" }], [d2[0]])), "not_tradeable");
  });

  it("needs at least one same-rarity pair between 譲 and 求", async () => {
    const user = await createUser(db);
    await rejects(createOffer(db, user.id, offer([d2[0]], [d3[0]])), "no_same_rarity_pair");
    await rejects(createOffer(db, user.id, offer([d2[0], d4[0]], [d3[0], d3[1]])), "no_same_rarity_pair");
    expect(await offerCount(user.id)).toBe(0);
    await createOffer(db, user.id, offer([d2[0], d4[0]], [d3[0], d4[1]]));
    expect(await offerCount(user.id)).toBe(1);
  });

  it("validates copies (1–2), comment length (≤500), duplicates and a card on both sides", async () => {
    const user = await createUser(db);
    expect(OfferInputSchema.safeParse({ give: [{ cardId: d2[0].id, count: 3 }], want: [{ cardId: d2[1].id, count: 1 }] }).error?.issues[0].message).toBe("copiesRange");
    expect(OfferInputSchema.safeParse({ give: [{ cardId: d2[0].id, count: 0 }], want: [{ cardId: d2[1].id, count: 1 }] }).success).toBe(false);
    expect(OfferInputSchema.safeParse({ give: [{ cardId: d2[0].id, count: 1 }], want: [{ cardId: d2[1].id, count: 1 }], comment: "あ".repeat(501) }).error?.issues[0].message).toBe("commentTooLong");
    expect(OfferInputSchema.safeParse({ give: [{ cardId: d2[0].id, count: 1 }], want: [{ cardId: d2[1].id, count: 1 }], comment: "あ".repeat(500) }).success).toBe(true);
    expect(OfferInputSchema.safeParse({ give: [], want: [{ cardId: d2[1].id, count: 1 }] }).error?.issues[0].message).toBe("giveRequired");
    await rejects(createOffer(db, user.id, offer([d2[0]], [d2[0]])), "same_card_both_sides");
    await rejects(createOffer(db, user.id, offer([d2[0], d2[0]], [d2[1]])), "duplicate_card");
    expect(await offerCount(user.id)).toBe(0);
  });

  it("needs a friend ID and refuses suspended users", async () => {
    const noFriend = await createUser(db, { friendId: null });
    await rejects(createOffer(db, noFriend.id, offer([d2[0]], [d2[1]])), "friend_id_required");
    const suspended = await createUser(db);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.id));
    await rejects(createOffer(db, suspended.id, offer([d2[0]], [d2[1]])), "suspended");
    expect(await offerCount(noFriend.id)).toBe(0);
    expect(await offerCount(suspended.id)).toBe(0);
  });

  it("allows at most 5 open offers, even when posts race; a closed or expired one frees a slot", async () => {
    const user = await createUser(db);
    for (let i = 0; i < MAX_OPEN_OFFERS - 1; i++) await createOffer(db, user.id, offer([d2[i]], [d2[i + 6]]));
    // Two posts at once for the last slot: exactly one wins.
    const results = await Promise.allSettled([
      createOffer(db, user.id, offer([d3[0]], [d3[1]])),
      createOffer(db, user.id, offer([d3[2]], [d3[3]])),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((failed.reason as TradeError).code).toBe("too_many_open");
    expect(await offerCount(user.id)).toBe(MAX_OPEN_OFFERS);
    await rejects(createOffer(db, user.id, offer([d3[4]], [d3[5]])), "too_many_open");

    const own = await listOwnOffers(db, user.id);
    await closeOffer(db, user.id, own[0].id);
    await createOffer(db, user.id, offer([d3[4]], [d3[5]]));
    await db.update(tradeOffers).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(tradeOffers.id, own[1].id));
    await createOffer(db, user.id, offer([d3[6]], [d3[7]]));
    await rejects(createOffer(db, user.id, offer([d3[8]], [d3[9]])), "too_many_open");
  });

  it("limits posts per user per hour in the database, writing nothing over the limit", async () => {
    const user = await createUser(db);
    await db.execute(sql`insert into trade_rate_limits (user_id, action, window_start, count)
                         values (${user.id}, 'post', date_trunc('hour', now()), ${POSTS_PER_HOUR})`);
    const error = await rejects(createOffer(db, user.id, offer([d2[0]], [d2[1]])), "rate_limited_post");
    expect(error.status).toBe(429);
    expect(await offerCount(user.id)).toBe(0);
    // Last hour's window does not count.
    await db.execute(sql`update trade_rate_limits set window_start = window_start - interval '1 hour' where user_id = ${user.id}`);
    await createOffer(db, user.id, offer([d2[0]], [d2[1]]));
    expect(await offerCount(user.id)).toBe(1);
  });
});

describe("expiry and bump", () => {
  it("an expired offer leaves the board but stays on the owner's list as expired", async () => {
    const user = await createUser(db);
    const { id } = await createOffer(db, user.id, offer([d4[0]], [d4[1]]));
    expect((await listBoard(db, { filters: { give: d4[0].id } })).offers.map((o) => o.id)).toContain(id);
    await db.update(tradeOffers).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(tradeOffers.id, id));
    // Written behind the app's back, which moves the board version on every write of its own (the
    // kept pages' handling of an offer that expires by the clock: board-pages.test.ts).
    publishChange("board");
    expect((await listBoard(db, { filters: { give: d4[0].id } })).offers.map((o) => o.id)).not.toContain(id);
    expect((await getOffer(db, id))!.status).toBe("expired");
    const own = await listOwnOffers(db, user.id);
    expect(own.find((o) => o.id === id)?.status).toBe("expired");
    // The owner's list flips the row lazily, no cron needed.
    expect((await rowOf(id)).status).toBe("expired");
  });

  it("bumps once per 24 h: to the top of the board with a fresh 72 h window; an expired offer comes back", async () => {
    const user = await createUser(db);
    const { id } = await createOffer(db, user.id, offer([d3[10]], [d3[11]]));
    const other = await createUser(db);
    const { id: newer } = await createOffer(db, other.id, offer([d3[10]], [d3[9]]));
    await rejects(bumpOffer(db, user.id, id), "bump_too_soon");

    await db.update(tradeOffers).set({ bumpedAt: sql`now() - interval '25 hours'`, expiresAt: sql`now() + interval '47 hours'` }).where(eq(tradeOffers.id, id));
    let board = (await listBoard(db, { filters: { give: d3[10].id } })).offers.map((o) => o.id);
    expect(board.indexOf(newer)).toBeLessThan(board.indexOf(id));
    await bumpOffer(db, user.id, id);
    board = (await listBoard(db, { filters: { give: d3[10].id } })).offers.map((o) => o.id);
    expect(board[0]).toBe(id);
    const row = await rowOf(id);
    expect(Math.round((row.expiresAt.getTime() - row.bumpedAt.getTime()) / 3600_000)).toBe(72);
    await rejects(bumpOffer(db, user.id, id), "bump_too_soon");

    await db.update(tradeOffers).set({ bumpedAt: sql`now() - interval '80 hours'`, expiresAt: sql`now() - interval '8 hours'` }).where(eq(tradeOffers.id, id));
    expect((await getOffer(db, id))!.status).toBe("expired");
    await bumpOffer(db, user.id, id);
    expect((await getOffer(db, id))!.status).toBe("open");
  });
});

describe("owner-only actions", () => {
  it("another user gets forbidden and nothing changes; an unknown id is not found", async () => {
    const owner = await createUser(db);
    const intruder = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d2[2]], [d2[3]], "元のコメント"));
    await db.update(tradeOffers).set({ bumpedAt: sql`now() - interval '30 hours'` }).where(eq(tradeOffers.id, id));
    const before = await rowOf(id);
    const attempts: (() => Promise<unknown>)[] = [
      () => updateOffer(db, intruder.id, id, offer([d2[4]], [d2[5]], "乗っ取り")),
      // Even an edit that breaks the rules is refused for ownership first.
      () => updateOffer(db, intruder.id, id, offer([d2[4]], [d3[5]], "乗っ取り")),
      () => closeOffer(db, intruder.id, id),
      () => markOfferCompleted(db, intruder.id, id),
      () => bumpOffer(db, intruder.id, id),
      () => deleteOffer(db, intruder.id, id),
    ];
    for (const attempt of attempts) {
      const error = await rejects(attempt(), "forbidden");
      expect(error.status).toBe(403);
    }
    expect(await rowOf(id)).toEqual(before);
    for (const missing of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      expect((await rejects(deleteOffer(db, owner.id, missing), "not_found")).status).toBe(404);
    }
  });

  it("the owner edits while open, closes, completes and deletes", async () => {
    const owner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d2[2]], [d2[3]]));
    await updateOffer(db, owner.id, id, offer([d2[4], d3[0]], [d2[5]], "変更しました"));
    const edited = await rowOf(id);
    expect(edited.comment).toBe("変更しました");
    expect(edited.cards).toEqual([`give:${d2[4].id}:1`, `give:${d3[0].id}:1`, `want:${d2[5].id}:1`].sort());
    // An invalid edit keeps the stored cards.
    await rejects(updateOffer(db, owner.id, id, offer([d3[1]], [d2[6]])), "no_same_rarity_pair");
    expect((await rowOf(id)).cards).toEqual(edited.cards);

    await closeOffer(db, owner.id, id);
    expect((await rowOf(id)).status).toBe("closed");
    await rejects(updateOffer(db, owner.id, id, offer([d2[4]], [d2[5]])), "not_editable");
    await rejects(closeOffer(db, owner.id, id), "not_open");

    const second = await createOffer(db, owner.id, offer([d2[2]], [d2[3]]));
    await markOfferCompleted(db, owner.id, second.id);
    expect((await rowOf(second.id)).status).toBe("completed");
    await deleteOffer(db, owner.id, second.id);
    expect(await getOffer(db, second.id)).toBeNull();
    expect(await db.select().from(tradeOfferCards).where(eq(tradeOfferCards.offerId, second.id))).toEqual([]);
  });
});

describe("deleting an offer someone answered", () => {
  it("is refused (409) while the offer has a chat room, which keeps the room, its messages and reports; an unanswered offer is deleted", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d3[4]], [d3[5]]));
    const { roomId } = await openChatRoomForOffer(db, { offerId: id, userId: partner.id });
    await sendMessage(db, { roomId, userId: partner.id, clientId: "delete-guard-1", body: "交換お願いします" });
    const { reportId } = await reportOffer(db, partner.id, id, "怪しい");
    // A cancelled conversation is still the partner's record.
    await db.update(chatRooms).set({ cancelledAt: new Date() }).where(eq(chatRooms.id, roomId));

    const error = await rejects(deleteOffer(db, owner.id, id), "has_chat_cannot_delete");
    expect(error.status).toBe(409);
    expect((await rowOf(id)).status).toBe("open");
    expect(await db.select({ id: chatRooms.id }).from(chatRooms).where(eq(chatRooms.offerId, id))).toEqual([{ id: roomId }]);
    expect((await db.select({ body: chatMessages.body }).from(chatMessages).where(eq(chatMessages.roomId, roomId))).map((m) => m.body)).toEqual(["交換お願いします"]);
    expect((await listReports(db)).find((r) => r.id === reportId)?.offer?.id).toBe(id);
    // Closing is the way out, and even a closed offer keeps its room.
    await closeOffer(db, owner.id, id);
    await rejects(deleteOffer(db, owner.id, id), "has_chat_cannot_delete");
    // The database refuses too, whoever deletes.
    await expect(db.delete(tradeOffers).where(eq(tradeOffers.id, id))).rejects.toThrow();
    expect((await rowOf(id)).status).toBe("closed");

    const unanswered = await createOffer(db, owner.id, offer([d3[4]], [d3[5]]));
    await deleteOffer(db, owner.id, unanswered.id);
    expect(await db.select().from(tradeOffers).where(eq(tradeOffers.id, unanswered.id))).toEqual([]);
  });
});

describe("an expired offer the row still calls open", () => {
  it("cannot become 取引中 from the chat: both agreeing answers offer_unavailable and writes nothing", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d2[0]], [d2[1]]));
    const { roomId } = await openChatRoomForOffer(db, { offerId: id, userId: partner.id });
    await db.update(tradeOffers).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(tradeOffers.id, id));

    expect(await startNegotiationFromChat(db, { offerId: id, partnerId: partner.id })).toBe(false);
    expect((await rowOf(id)).status).toBe("open");

    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    const error = await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).code).toBe("offer_unavailable");
    const [room] = await db.select().from(chatRooms).where(eq(chatRooms.id, roomId));
    expect(room.ownerAgreedAt).toBeNull();
    expect((await db.select({ body: chatMessages.body }).from(chatMessages).where(eq(chatMessages.roomId, roomId))).map((m) => m.body)).toEqual(["agree"]);
    const row = await rowOf(id);
    expect(row.partnerId).toBeNull();
    expect((await getOffer(db, id))!.status).toBe("expired");
  });
});

describe("the board", () => {
  it("refuses a well-formed cursor that names no real time or id, before it reaches the database", async () => {
    const id = "0b9d7c3e-1f2a-4b5c-8d6e-7f8091a2b3c4";
    for (const bumpKey of ["2026-13-01T00:00:00.000000", "2026-02-30T12:00:00.000000", "2026-01-01T25:00:00.000000", "2026-01-01T23:60:00.000000", "0000-01-01T00:00:00.000000"]) {
      const cursor = encodeCursor(bumpKey, id);
      expect(() => decodeCursor(cursor), bumpKey).toThrow(TradeError);
      await rejects(listBoard(db, { cursor }), "invalid_cursor");
    }
    await rejects(listBoard(db, { cursor: encodeCursor("2026-01-01T00:00:00.000000", "not-a-uuid") }), "invalid_cursor");
    await rejects(listBoard(db, { cursor: Buffer.from(`2026-01-01T00:00:00.000000|${id}|x`).toString("base64url") }), "invalid_cursor");
    // A real instant still pages: the leap day of 2028 and the last microsecond of a year.
    for (const bumpKey of ["2028-02-29T00:00:00.000000", "2026-12-31T23:59:59.999999"]) {
      expect(decodeCursor(encodeCursor(bumpKey, id))).toEqual({ bumpKey, id });
      expect((await listBoard(db, { cursor: encodeCursor(bumpKey, id) })).offers).toBeInstanceOf(Array);
    }
  });

  it("lists newest first with cursor pages that neither skip nor repeat, and filters by card, pack and rarity", async () => {
    const users = [await createUser(db), await createUser(db), await createUser(db)];
    // A rarity no other test offers, so this test sees only its own offers.
    const rare = await catalogueCards(db, "✦", 8);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { id } = await createOffer(db, users[i % 3].id, offer([rare[i]], [rare[(i + 1) % 7]]));
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await listBoard(db, { filters: { rarity: "✦" }, cursor, limit: 3 });
      seen.push(...page.offers.map((o) => o.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
    expect(() => decodeCursor("garbage")).toThrow(TradeError);

    const gives = await listBoard(db, { filters: { give: rare[3].id } });
    expect(gives.offers.map((o) => o.id)).toEqual([ids[3]]);
    const wants = await listBoard(db, { filters: { want: rare[3].id } });
    expect(wants.offers.map((o) => o.id)).toEqual([ids[2]]);
    const [{ pack }] = await db.execute(sql`select pack_id as pack from card_packs where card_id = ${rare[0].id} limit 1`).then((r) => (r as unknown as { rows: { pack: string }[] }).rows);
    const byPack = await listBoard(db, { filters: { pack, rarity: "✦" } });
    expect(byPack.offers.map((o) => o.id)).toContain(ids[0]);
    expect(await offerCountsForCard(db, rare[3].id)).toEqual({ give: 1, want: 1 });
    // Friend IDs never reach the board.
    expect(JSON.stringify(gives)).not.toMatch(/friend/i);
  });

  it("keeps a card page's counts until the board changes: a new offer and a closed one show at once", async () => {
    const owner = await createUser(db);
    const rare = await catalogueCards(db, "✦", 8);
    const card = rare[7];
    const before = await offerCountsForCard(db, card.id);
    const { id } = await createOffer(db, owner.id, offer([card], [rare[6]]));
    expect(await offerCountsForCard(db, card.id)).toEqual({ give: before.give + 1, want: before.want });
    await closeOffer(db, owner.id, id);
    expect(await offerCountsForCard(db, card.id)).toEqual(before);
  });

  it("hides offers of users blocked either way, and of suspended users", async () => {
    const viewer = await createUser(db);
    const blockedByViewer = await createUser(db);
    const blockerOfViewer = await createUser(db);
    const suspended = await createUser(db);
    const card = d4[2];
    const a = await createOffer(db, blockedByViewer.id, offer([card], [d4[3]]));
    const b = await createOffer(db, blockerOfViewer.id, offer([card], [d4[4]]));
    const c = await createOffer(db, suspended.id, offer([card], [d4[5]]));
    await blockUser(db, viewer.id, blockedByViewer.id);
    await blockUser(db, blockerOfViewer.id, viewer.id);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.id));
    const seenByViewer = (await listBoard(db, { viewerId: viewer.id, filters: { give: card.id } })).offers.map((o) => o.id);
    expect(seenByViewer).not.toContain(a.id);
    expect(seenByViewer).not.toContain(b.id);
    expect(seenByViewer).not.toContain(c.id);
    const seenByOthers = (await listBoard(db, { filters: { give: card.id } })).offers.map((o) => o.id);
    expect(seenByOthers).toContain(a.id);
    expect(seenByOthers).toContain(b.id);
    expect(seenByOthers).not.toContain(c.id);
    expect(await getOffer(db, a.id, viewer.id)).toBeNull();
    await rejects(openChatRoomForOffer(db, { offerId: b.id, userId: viewer.id }), "blocked");
    await expect(blockUser(db, viewer.id, viewer.id)).rejects.toSatisfy((e) => e instanceof BlockError && e.code === "cannot_block_self");
  });
});

describe("マッチ", () => {
  it("finds offers that give what I want and want what I give with a same-rarity pair, ranked by fitting pairs then activity", async () => {
    const cards = await catalogueCards(db, "◆", 12);
    const cards2 = await catalogueCards(db, "✦✦", 4);
    const [A, C, X, Y] = [cards[0], cards[1], cards[2], cards[3]]; // ◆
    const [B, D] = [cards2[0], cards2[1]]; // ✦✦
    const me = await createUser(db);
    // I give A (◆) and B (✦✦), I want C (◆) and D (✦✦) — over two open offers.
    await createOffer(db, me.id, offer([A], [C]));
    await createOffer(db, me.id, offer([B], [D]));
    // A closed offer of mine does not count: its cards must not create matches.
    const closedMine = await createOffer(db, me.id, offer([cards[4]], [cards[5]]));
    await closeOffer(db, me.id, closedMine.id);

    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    const two = await createUser(db, { lastActiveAt: hoursAgo(10) });
    const recent = await createUser(db, { lastActiveAt: hoursAgo(1) });
    const idle = await createUser(db, { lastActiveAt: hoursAgo(5) });
    const wrongRarity = await createUser(db);
    const noSecondSide = await createUser(db);
    const expired = await createUser(db);
    const blocked = await createUser(db);
    const closedSide = await createUser(db);

    const o2 = await createOffer(db, two.id, offer([C, D], [A, B])); // 2 pairs (◆ and ✦✦)
    const oRecent = await createOffer(db, recent.id, offer([C, X], [A, Y])); // 1 pair, active 1 h ago
    const oIdle = await createOffer(db, idle.id, offer([C], [A])); // 1 pair, active 5 h ago
    await createOffer(db, wrongRarity.id, offer([D, X], [A, Y])); // gets ✦✦ D for ◆ A: no same-rarity pair
    await createOffer(db, noSecondSide.id, offer([C], [X])); // wants nothing I give
    const oExpired = await createOffer(db, expired.id, offer([C], [A]));
    await db.update(tradeOffers).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(tradeOffers.id, oExpired.id));
    await createOffer(db, blocked.id, offer([C], [A]));
    await blockUser(db, me.id, blocked.id);
    await createOffer(db, closedSide.id, offer([cards[5]], [cards[4]])); // matches only my closed offer
    // touchActive on posting moved every owner's activity to now; put the crafted times back.
    for (const [user, at] of [[two, 10], [recent, 1], [idle, 5]] as const) {
      await db.update(profiles).set({ lastActiveAt: hoursAgo(at) }).where(eq(profiles.userId, user.id));
    }

    const matches = await listMatches(db, me.id);
    expect(matches.map((m) => m.id)).toEqual([o2.id, oRecent.id, oIdle.id]);
    expect(matches.map((m) => m.fitting)).toEqual([2, 1, 1]);
    const pairs = matches[0].pairs.map((p) => ({ rarity: p.rarity, give: p.give, want: p.want })).sort((a, b) => a.rarity.localeCompare(b.rarity));
    expect(pairs).toEqual(
      [
        { rarity: "◆", give: [C.id], want: [A.id] },
        { rarity: "✦✦", give: [D.id], want: [B.id] },
      ].sort((a, b) => a.rarity.localeCompare(b.rarity)),
    );
    // The other side sees me too.
    expect((await listMatches(db, two.id)).map((m) => m.ownerId)).toContain(me.id);
    // Nobody matches a user with no open offers.
    expect(await listMatches(db, (await createUser(db)).id)).toEqual([]);
  });
});

describe("マッチ stays current", () => {
  it("shows a new offer, drops a closed or blocked one and follows my own edits at once", async () => {
    const cards = await catalogueCards(db, "◆◆", 16);
    const [A, C, E] = [cards[13], cards[14], cards[15]];
    const me = await createUser(db);
    const other = await createUser(db);
    const mine = await createOffer(db, me.id, offer([A], [C]));
    const ids = async () => (await listMatches(db, me.id)).map((m) => m.id);
    expect(await ids()).toEqual([]);

    // Posted after my last look: there at once.
    const theirs = await createOffer(db, other.id, offer([C], [A]));
    expect(await ids()).toEqual([theirs.id]);
    // Closed: gone at once.
    await closeOffer(db, other.id, theirs.id);
    expect(await ids()).toEqual([]);
    const again = await createOffer(db, other.id, offer([C, E], [A]));
    expect(await ids()).toEqual([again.id]);
    // Blocked and unblocked.
    await blockUser(db, me.id, other.id);
    expect(await ids()).toEqual([]);
    await unblockUser(db, me.id, other.id);
    expect(await ids()).toEqual([again.id]);
    // My own edit: I now want E, which they also give.
    await updateOffer(db, me.id, mine.id, OfferInputSchema.parse({ give: [{ cardId: A.id, count: 1 }], want: [{ cardId: E.id, count: 1 }] }));
    expect(await ids()).toEqual([again.id]);
    await updateOffer(db, me.id, mine.id, OfferInputSchema.parse({ give: [{ cardId: C.id, count: 1 }], want: [{ cardId: E.id, count: 1 }] }));
    expect(await ids()).toEqual([]);
  });

  it("follows what the chat does: 取引中 and a block from the room take an offer out at once", async () => {
    const cards = await catalogueCards(db, "◆◆", 20);
    const [A, C] = [cards[17], cards[18]];
    const me = await createUser(db);
    const owner = await createUser(db);
    const partner = await createUser(db);
    await createOffer(db, me.id, offer([A], [C]));
    const theirs = await createOffer(db, owner.id, offer([C], [A]));
    const ids = async () => (await listMatches(db, me.id)).map((m) => m.id);
    expect(await ids()).toContain(theirs.id);
    // Someone else agrees with the owner in their room: the offer is 取引中, not on offer any more.
    const { roomId } = await openChatRoomForOffer(db, { offerId: theirs.id, userId: partner.id });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    expect((await rowOf(theirs.id)).status).toBe("negotiating");
    expect(await ids()).not.toContain(theirs.id);
    // キャンセル puts it back.
    await applyTradeStep(db, { roomId, userId: owner.id, step: "cancel" });
    expect(await ids()).toContain(theirs.id);
    // I open a room with the owner and block them from it.
    const mine = await openChatRoomForOffer(db, { offerId: theirs.id, userId: me.id });
    await blockRoomPartner(db, mine.roomId, me.id);
    expect(await ids()).not.toContain(theirs.id);
    await unblockRoomPartner(db, mine.roomId, me.id);
    expect(await ids()).toContain(theirs.id);
  });

  it("keeps trade_offers.match_keys equal to the offer's cards and their rarities, whoever writes them", async () => {
    const [A, C, E] = (await catalogueCards(db, "◆◆", 16)).slice(10, 13);
    const user = await createUser(db);
    const created = await createOffer(db, user.id, offer([A, E], [C]));
    // Compared sorted: the database's collation orders "g:" and "gr:" its own way.
    const keysOf = async (id: string) => [...(await db.select({ k: tradeOffers.matchKeys }).from(tradeOffers).where(eq(tradeOffers.id, id)))[0].k].sort();
    expect(await keysOf(created.id)).toEqual([`g:${A.id}`, `g:${E.id}`, `w:${C.id}`, "gr:◆◆", "wr:◆◆"].sort());
    await updateOffer(db, user.id, created.id, OfferInputSchema.parse({ give: [{ cardId: C.id, count: 2 }], want: [{ cardId: A.id, count: 1 }] }));
    expect(await keysOf(created.id)).toEqual([`g:${C.id}`, `w:${A.id}`, "gr:◆◆", "wr:◆◆"].sort());
    // Straight SQL too: the database keeps the keys, not the service.
    await db.delete(tradeOfferCards).where(and(eq(tradeOfferCards.offerId, created.id), eq(tradeOfferCards.side, "want")));
    expect(await keysOf(created.id)).toEqual([`g:${C.id}`, "gr:◆◆"].sort());
    await db.update(tradeOfferCards).set({ side: "want" }).where(eq(tradeOfferCards.offerId, created.id));
    expect(await keysOf(created.id)).toEqual([`w:${C.id}`, "wr:◆◆"].sort());
    // A card moved to another offer leaves the first one's keys too.
    const other = await createOffer(db, user.id, offer([E], [A]));
    await db.update(tradeOfferCards).set({ offerId: other.id }).where(eq(tradeOfferCards.offerId, created.id));
    expect(await keysOf(created.id)).toEqual([]);
    expect(await keysOf(other.id)).toEqual([`g:${E.id}`, `w:${A.id}`, `w:${C.id}`, "gr:◆◆", "wr:◆◆"].sort());
  });
});

describe("マッチ pages", () => {
  it("shows the ranked list a page at a time and hands out the same page while nothing changes", async () => {
    const cards = await catalogueCards(db, "◆◆", 24);
    const [A, C] = [cards[21], cards[22]];
    const me = await createUser(db);
    await createOffer(db, me.id, offer([A], [C]));
    const owners: { id: string }[] = [];
    const theirs: { id: string }[] = [];
    for (let i = 0; i < MATCH_PAGE_SIZE + 3; i++) {
      owners.push(await createUser(db));
      theirs.push(await createOffer(db, owners[i].id, offer([C], [A])));
    }
    const all = (await listMatches(db, me.id)).map((m) => m.id);
    expect(all).toHaveLength(MATCH_PAGE_SIZE + 3);

    const first = await listMatchPage(db, me.id);
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: MATCH_PAGE_SIZE + 3 });
    expect(first.matches.map((m) => m.id)).toEqual(all.slice(0, MATCH_PAGE_SIZE));
    const second = await listMatchPage(db, me.id, 2);
    expect(second.matches.map((m) => m.id)).toEqual(all.slice(MATCH_PAGE_SIZE));
    expect(await listMatchPage(db, me.id, 3)).toMatchObject({ matches: [], page: 3, pageCount: 2 });
    // Unchanged board: the very same page (routes keep what they serialised from it).
    expect(await listMatchPage(db, me.id, 1)).toBe(first);
    // Its list items name the cards in the reader's language, each language its own.
    const [ja, en] = [await listMatchListPage(db, me.id, 1, "ja"), await listMatchListPage(db, me.id, 1, "en")];
    const [{ nameEn }] = await rowsOf<{ nameEn: string }>(db, sql`select name_en as "nameEn" from cards where id = ${C.id}`);
    expect(nameEn).toBeTruthy();
    expect(nameEn).not.toBe(C.name);
    expect(ja.items[0].give[0].name).toBe(C.name);
    expect(en.items[0].give[0].name).toBe(nameEn);
    expect((await listMatchListPage(db, me.id, 1, "ja")).items).toBe(ja.items);

    // A change on the board makes new pages at once.
    await closeOffer(db, owners[0].id, theirs[0].id);
    const after = await listMatchPage(db, me.id, 1);
    expect(after).not.toBe(first);
    expect(after.total).toBe(MATCH_PAGE_SIZE + 2);
    expect(after.matches.map((m) => m.id)).not.toContain(theirs[0].id);
  });

  it("reads ?page= as 1–999 and refuses anything else", () => {
    expect(parseMatchPage(null)).toBe(1);
    expect(parseMatchPage("")).toBe(1);
    expect(parseMatchPage("2")).toBe(2);
    expect(parseMatchPage("999")).toBe(999);
    for (const bad of ["0", "-1", "1.5", "01", "abc", "1000", "２"]) {
      expect(() => parseMatchPage(bad), bad).toThrow(expect.objectContaining({ code: "invalid_page", status: 400 }));
    }
  });
});

describe("交渉する: one chat room per offer and partner", () => {
  it("creates the room once, even when requests race, and reopens it later", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d3[2]], [d3[3]]));
    const results = await Promise.all(Array.from({ length: 6 }, () => openChatRoomForOffer(db, { offerId: id, userId: partner.id })));
    const roomIds = new Set(results.map((r) => r.roomId));
    expect(roomIds.size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await db.select().from(chatRooms).where(and(eq(chatRooms.offerId, id), eq(chatRooms.partnerId, partner.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ownerId: owner.id, partnerId: partner.id });

    await db.update(chatRooms).set({ cancelledAt: new Date() }).where(eq(chatRooms.id, rows[0].id));
    const again = await openChatRoomForOffer(db, { offerId: id, userId: partner.id });
    expect(again).toEqual({ roomId: rows[0].id, created: false });
    expect((await db.select().from(chatRooms).where(eq(chatRooms.id, rows[0].id)))[0].cancelledAt).toBeNull();

    await rejects(openChatRoomForOffer(db, { offerId: id, userId: owner.id }), "own_offer");
    const noFriend = await createUser(db, { friendId: null });
    await rejects(openChatRoomForOffer(db, { offerId: id, userId: noFriend.id }), "friend_id_required");
    // A closed offer keeps its existing conversation but takes no new partners.
    await closeOffer(db, owner.id, id);
    expect((await openChatRoomForOffer(db, { offerId: id, userId: partner.id })).roomId).toBe(rows[0].id);
    await rejects(openChatRoomForOffer(db, { offerId: id, userId: (await createUser(db)).id }), "not_open");
  });

  it("limits new conversations per hour", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d2[7]], [d2[8]]));
    await db.execute(sql`insert into trade_rate_limits (user_id, action, window_start, count)
                         values (${partner.id}, 'respond', date_trunc('hour', now()), ${RESPONSES_PER_HOUR})`);
    await rejects(openChatRoomForOffer(db, { offerId: id, userId: partner.id }), "rate_limited_respond");
    expect(await db.select().from(chatRooms).where(eq(chatRooms.offerId, id))).toEqual([]);
  });

  it("completing from the chat counts one completed trade for each side, once", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id } = await createOffer(db, owner.id, offer([d2[9]], [d2[10]]));
    expect(await completeTradeFromChat(db, { offerId: id, partnerId: partner.id })).toEqual({ completed: false });
    await openChatRoomForOffer(db, { offerId: id, userId: partner.id });
    expect(await startNegotiationFromChat(db, { offerId: id, partnerId: partner.id })).toBe(true);
    expect((await getOffer(db, id))!.status).toBe("negotiating");
    await rejects(deleteOffer(db, owner.id, id), "negotiating_cannot_delete");
    const [first, second] = await Promise.all([
      completeTradeFromChat(db, { offerId: id, partnerId: partner.id }),
      completeTradeFromChat(db, { offerId: id, partnerId: partner.id }),
    ]);
    expect([first.completed, second.completed].sort()).toEqual([false, true]);
    const counts = await db.select({ userId: profiles.userId, n: profiles.completedTrades }).from(profiles).where(sql`${profiles.userId} in (${owner.id}, ${partner.id})`);
    expect(counts.map((c) => c.n)).toEqual([1, 1]);
    expect((await rowOf(id)).status).toBe("completed");
    expect((await getOffer(db, id))!.ownerCompletedTrades).toBe(1);
  });
});

describe("reports", () => {
  it("land in the admin list; dismiss, close the offer or suspend the user", async () => {
    const owner = await createUser(db, { name: "通報される人" });
    const reporter = await createUser(db, { name: "通報する人" });
    const first = await createOffer(db, owner.id, offer([d4[0]], [d4[1]], "怪しい募集"));
    const second = await createOffer(db, owner.id, offer([d4[2]], [d4[3]]));
    await expect(reportOffer(db, owner.id, first.id, "自分")).rejects.toSatisfy((e) => e instanceof ModerationError && e.code === "own_offer");
    const { reportId } = await reportOffer(db, reporter.id, first.id, "詐欺の疑い");
    expect((await reportOffer(db, reporter.id, first.id, "もう一度")).reportId).toBe(reportId);
    const list = await listReports(db);
    const mine = list.find((r) => r.id === reportId)!;
    expect(mine).toMatchObject({ reason: "詐欺の疑い", reporterName: "通報する人", targetUserName: "通報される人", offer: { id: first.id, comment: "怪しい募集" } });

    await resolveReport(db, reportId, "closeOffer");
    expect((await rowOf(first.id)).status).toBe("closed");
    expect((await db.select().from(reports).where(eq(reports.id, reportId)))[0].status).toBe("actioned");
    expect((await listReports(db)).map((r) => r.id)).not.toContain(reportId);

    const { reportId: r2 } = await reportOffer(db, reporter.id, second.id, "迷惑");
    await resolveReport(db, r2, "dismiss");
    expect((await rowOf(second.id)).status).toBe("open");
    expect((await db.select().from(reports).where(eq(reports.id, r2)))[0].status).toBe("dismissed");

    const { reportId: r3 } = await reportOffer(db, reporter.id, second.id, "やはり迷惑");
    await resolveReport(db, r3, "suspendUser");
    expect((await db.select().from(profiles).where(eq(profiles.userId, owner.id)))[0].suspendedAt).not.toBeNull();
    expect((await rowOf(second.id)).status).toBe("closed");
    await rejects(createOffer(db, owner.id, offer([d4[4]], [d4[5]])), "suspended");
    expect(await db.select().from(blocks).where(eq(blocks.blockerId, reporter.id))).toEqual([]);
  });
});
