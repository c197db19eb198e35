import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { ChatError, chooseAnyCard, respondWithAnyCard, roomAnyChoices } from "#app/features/chat/chat.server.ts";
import { getRoomState, getRoomView } from "#app/features/chat/room-views.server.ts";
import { ownedCountsIfKept, saveCollectionSettings, setCardCounts, type CollectionSettings } from "#app/features/collection/collection.server.ts";
import { anyCardChoices } from "#app/features/collection/trade-sides.server.ts";
import { parseOfferInput } from "#app/features/trades/http.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { TradeError } from "#app/features/trades/errors.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { givesBeyondCollection } from "#app/features/trades/rules.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange } from "#app/features/trades/trade-rules.server.ts";
import { readOfferPage } from "#app/pages/offer-page.server.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
type Card = { id: string; name: string; rarity: string };
let d2: Card[]; // ◆◆ only in the mewtwo pack
let d3: Card[]; // ◆◆◆ only in the mewtwo pack
let d2closing: Card[]; // ◆◆ only in the charizard pack, which one test closes by a rule

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  d2 = await catalogueCards(db, "◆◆", 14, { onlyPack: "mewtwo" });
  d3 = await catalogueCards(db, "◆◆◆", 3, { onlyPack: "mewtwo" });
  d2closing = await catalogueCards(db, "◆◆", 1, { onlyPack: "charizard" });
});
afterAll(async () => {
  await database?.close();
});

const named = (cards: Card[]) => cards.map((c) => ({ cardId: c.id, count: 1 }));
const input = (o: { give?: Card[]; want?: Card[]; giveAny?: boolean; wantAny?: boolean }) =>
  parseOfferInput({ give: named(o.give ?? []), want: named(o.want ?? []), giveAny: o.giveAny ?? false, wantAny: o.wantAny ?? false, comment: "" });
const chatRefusal = (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (e: unknown) => (e instanceof ChatError || e instanceof TradeError ? e.code : e),
  );

/** An offer owner with these counts, ほしいカード and collection settings. */
async function owner(options: { counts?: Record<string, number>; wanted?: string[]; settings?: Partial<CollectionSettings> } = {}) {
  const user = await createUser(db);
  const counts = Object.entries(options.counts ?? {}).map(([cardId, count]) => ({ cardId, count }));
  if (counts.length) await setCardCounts(db, user.id, counts);
  for (const cardId of options.wanted ?? []) await db.execute(sql`insert into wanted_cards (user_id, card_id) values (${user.id}, ${cardId})`);
  if (options.settings) await saveCollectionSettings(db, user.id, { showProgress: false, useForTrades: false, ...options.settings });
  return user;
}

const choiceIds = async (ownerId: string, offer: { giveAny: boolean; wantAny: boolean; rarities: string[] }) => {
  const choices = await anyCardChoices(db, await cardIndex(db), ownerId, offer);
  return choices.shared ? choices.cards.map((c) => c.id) : null;
};

describe("何でも可 and the owner's collection", () => {
  it("譲 何でも可: the choices are the owner's spare cards (above the keep count) of the named side's rarities, in rarities they trade; nothing when they did not opt in or keep no collection", async () => {
    const counts = { [d2[0].id]: 3, [d2[1].id]: 1, [d2[2].id]: 2, [d3[0].id]: 4 };
    const optedOut = await owner({ counts, settings: { useForTrades: false } });
    expect(await choiceIds(optedOut.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] })).toBeNull();
    const noCollection = await owner({ settings: { useForTrades: true } });
    expect(await choiceIds(noCollection.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] })).toBeNull();

    const sharing = await owner({ counts, settings: { useForTrades: true, keepCount: 1 } });
    // d2[1] is the one copy kept; ◆◆◆ is another rarity than the offer's named side.
    expect((await choiceIds(sharing.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] }))?.sort()).toEqual([d2[0].id, d2[2].id].sort());
    expect(await choiceIds(sharing.id, { giveAny: true, wantAny: false, rarities: ["◆◆", "◆◆◆"] })).toHaveLength(3);

    const keepsTwo = await owner({ counts, settings: { useForTrades: true, keepCount: 2 } });
    expect(await choiceIds(keepsTwo.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] })).toEqual([d2[0].id]);
    const tradesOnlyD3 = await owner({ counts, settings: { useForTrades: true, keepCount: 1, tradeRarities: ["◆◆◆"] } });
    expect(await choiceIds(tradesOnlyD3.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] })).toEqual([]);
  });

  it("求 何でも可: the choices are the cards the owner wants (their ほしいカード, or what they miss) of those rarities, never one they have spare", async () => {
    const listOnly = await owner({ counts: { [d2[3].id]: 1, [d2[4].id]: 3 }, wanted: [d2[5].id, d2[4].id, d3[1].id], settings: { useForTrades: true, wantMode: "wants" } });
    expect(await choiceIds(listOnly.id, { giveAny: false, wantAny: true, rarities: ["◆◆"] })).toEqual([d2[5].id]);

    const missing = await owner({ counts: { [d2[3].id]: 1 }, settings: { useForTrades: true, wantMode: "missing" } });
    const ids = (await choiceIds(missing.id, { giveAny: false, wantAny: true, rarities: ["◆◆"] }))!;
    expect(ids).toContain(d2[5].id);
    expect(ids).not.toContain(d2[3].id);
    expect(ids).not.toContain(d3[1].id);
  });

  it("a trade rule closing a card takes it out of the choices at once", async () => {
    const admin = await createUser(db, { role: "admin" });
    const sharing = await owner({ counts: { [d2[6].id]: 2, [d2closing[0].id]: 2 }, settings: { useForTrades: true } });
    expect((await choiceIds(sharing.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] }))?.sort()).toEqual([d2[6].id, d2closing[0].id].sort());
    const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "pack", target: "charizard", tradeable: false, effectiveAt: jst(-1), note: "テスト" }), admin.id);
    expect(await choiceIds(sharing.id, { giveAny: true, wantAny: false, rarities: ["◆◆"] })).toEqual([d2[6].id]);
  });

  it("交渉する with a chosen card: a card outside the owner's list is refused and opens no room; one from it opens the room naming it to both players", async () => {
    const poster = await owner({ counts: { [d2[7].id]: 2, [d2[8].id]: 1 }, settings: { useForTrades: true } });
    const partner = await createUser(db);
    const { id: offerId } = await createOffer(db, poster.id, input({ giveAny: true, want: [d2[9]] }));

    // The page offers the owner's spare card, and says nothing is missing to the reader.
    const page = await readOfferPage(db, offerId, partner.id, "ja", {});
    expect(page.anyChoice).toMatchObject({ shared: true, side: "give", total: 1 });
    expect(page.anyChoice?.shared && page.anyChoice.cards.map((c) => c.id)).toEqual([d2[7].id]);

    // d2[8] is the one copy the owner keeps: not theirs to give.
    expect(await chatRefusal(() => respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d2[8].id }))).toBe("card_not_owner_spare");
    expect(await chatRefusal(() => respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d3[2].id }))).toBe("card_wrong_rarity");
    const [rooms] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from chat_rooms where offer_id = ${offerId}::uuid`);
    expect(rooms.n).toBe(0);

    const { roomId, created, message } = await respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d2[7].id });
    expect(created).toBe(true);
    expect(message).toMatchObject({ kind: "system", body: "card_chosen", senderId: partner.id });
    for (const reader of [poster.id, partner.id]) {
      expect((await getRoomState(db, roomId, reader)).chosenCard).toMatchObject({ cardId: d2[7].id, side: "give", rarity: "◆◆" });
      expect((await getRoomView(db, roomId, reader)).chosenCard).toMatchObject({ cardId: d2[7].id, name: d2[7].name });
    }
    // The room offers the partner the same list (the owner has nothing to choose).
    expect((await roomAnyChoices(db, await getRoomView(db, roomId, partner.id)))?.map((c) => c.id)).toEqual([d2[7].id]);
    expect(await roomAnyChoices(db, await getRoomView(db, roomId, poster.id))).toBeNull();
    // Pressing it again with the same card reopens the room and posts nothing new.
    const again = await respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d2[7].id });
    expect(again).toMatchObject({ roomId, created: false, message: null });
    // Two presses at once by another player open one room and name the card once.
    const other = await createUser(db);
    const both = await Promise.all([1, 2].map(() => respondWithAnyCard(db, { offerId, userId: other.id, cardId: d2[7].id })));
    expect(new Set(both.map((b) => b.roomId)).size).toBe(1);
    const [named] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from chat_messages where room_id = ${both[0].roomId} and body = 'card_chosen'`);
    expect(named.n).toBe(1);
    // An owner whose list holds none of the rarities leaves any card open, and the page says why.
    const { id: d3Offer } = await createOffer(db, poster.id, input({ giveAny: true, want: [d3[2]] }));
    expect((await readOfferPage(db, d3Offer, partner.id, "ja", {})).anyChoice).toEqual({ shared: false, reason: "none_listed" });
    // In the room, too, a card outside the owner's list is refused.
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: partner.id, cardId: d2[10].id }))).toBe("card_not_owner_spare");
  });

  it("求 何でも可 against the owner's ほしいカード; an owner who does not share keeps today's choice of any card of the rarity", async () => {
    const poster = await owner({ counts: { [d2[11].id]: 1 }, wanted: [d2[12].id], settings: { useForTrades: true, wantMode: "wants" } });
    const partner = await createUser(db);
    const { id: offerId } = await createOffer(db, poster.id, input({ give: [d2[11]], wantAny: true }));
    expect(await chatRefusal(() => respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d2[13].id }))).toBe("card_not_owner_wanted");
    const { roomId } = await respondWithAnyCard(db, { offerId, userId: partner.id, cardId: d2[12].id });
    expect((await getRoomState(db, roomId, poster.id)).chosenCard).toMatchObject({ cardId: d2[12].id, side: "want" });

    const private_ = await owner({ counts: { [d2[11].id]: 1 }, wanted: [d2[12].id], settings: { useForTrades: false, wantMode: "wants" } });
    const { id: privateOffer } = await createOffer(db, private_.id, input({ give: [d2[11]], wantAny: true }));
    expect((await readOfferPage(db, privateOffer, partner.id, "ja", {})).anyChoice).toEqual({ shared: false, reason: "not_shared" });
    const { roomId: privateRoom } = await openChatRoomForOffer(db, { offerId: privateOffer, userId: partner.id });
    expect(await roomAnyChoices(db, await getRoomView(db, privateRoom, partner.id))).toBeNull();
    await chooseAnyCard(db, { roomId: privateRoom, userId: partner.id, cardId: d2[13].id });
    expect((await getRoomState(db, privateRoom, partner.id)).chosenCard).toMatchObject({ cardId: d2[13].id });
  });

  it("an offer giving a card the poster's collection lacks is posted, and its page warns the poster only", async () => {
    const poster = await owner({ counts: { [d3[0].id]: 1 } });
    const reader = await createUser(db);
    // Posted: the collection never refuses an offer.
    const { id: offerId } = await createOffer(db, poster.id, parseOfferInput({ give: [{ cardId: d3[0].id, count: 2 }, { cardId: d3[1].id, count: 1 }], want: named([d3[2]]), comment: "" }));
    expect((await readOfferPage(db, offerId, poster.id, "ja", {})).givesNotOwned.sort()).toEqual([d3[0].id, d3[1].id].sort());
    expect((await readOfferPage(db, offerId, reader.id, "ja", {})).givesNotOwned).toEqual([]);

    // A poster without a collection sees nothing new.
    const noCollection = await createUser(db);
    const { id: plain } = await createOffer(db, noCollection.id, input({ give: [d3[1]], want: [d3[2]] }));
    expect(await ownedCountsIfKept(db, noCollection.id)).toBeNull();
    expect((await readOfferPage(db, plain, noCollection.id, "ja", {})).givesNotOwned).toEqual([]);

    // The one rule the form and the page share.
    const owned = await ownedCountsIfKept(db, poster.id);
    expect(owned).toEqual({ [d3[0].id]: 1 });
    expect(givesBeyondCollection([{ cardId: d3[0].id, count: 1 }, { cardId: d3[0].id, count: 2 }, { cardId: d3[1].id, count: 1 }], owned)).toEqual([
      { cardId: d3[0].id, count: 2 },
      { cardId: d3[1].id, count: 1 },
    ]);
    expect(givesBeyondCollection([{ cardId: d3[1].id, count: 1 }], null)).toEqual([]);
  });
});

describe("何でも可 and blocks", () => {
  it("a blocked player's card is refused as blocked whichever card it is, so the refusals say nothing of the owner's list; either side's block", async () => {
    const poster = await owner({ counts: { [d2[11].id]: 2, [d2[12].id]: 1 }, wanted: [d2[13].id], settings: { useForTrades: true } });
    const { id: giving } = await createOffer(db, poster.id, input({ giveAny: true, want: [d2[9]] }));
    const { id: wanting } = await createOffer(db, poster.id, input({ wantAny: true, give: [d2[10]] }));
    const blockedByOwner = await createUser(db);
    const blockingOwner = await createUser(db);
    await blockUser(db, poster.id, blockedByOwner.id);
    await blockUser(db, blockingOwner.id, poster.id);
    for (const partner of [blockedByOwner, blockingOwner]) {
      // On the list, off the list, the wrong rarity: one answer.
      for (const card of [d2[11], d2[12], d3[0], d2[13], d2[5]]) {
        for (const offerId of [giving, wanting]) {
          expect(await chatRefusal(() => respondWithAnyCard(db, { offerId, userId: partner.id, cardId: card.id }))).toBe("blocked");
        }
      }
    }
    const [rooms] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from chat_rooms where offer_id in (${giving}::uuid, ${wanting}::uuid)`);
    expect(rooms.n).toBe(0);
    // Anyone else still hears why a card is refused.
    const stranger = await createUser(db);
    expect(await chatRefusal(() => respondWithAnyCard(db, { offerId: giving, userId: stranger.id, cardId: d2[12].id }))).toBe("card_not_owner_spare");
  });
});
