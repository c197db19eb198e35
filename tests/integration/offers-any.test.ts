import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { listBoard } from "#app/features/trades/board.server.ts";
import { offerFieldsFromForm, parseOfferInput } from "#app/features/trades/http.server.ts";
import { listMatches } from "#app/features/trades/matches.server.ts";
import { createOffer, getOffer, openChatRoomForOffer, TradeError } from "#app/features/trades/offers.server.ts";
import { getRoomState, getRoomView, roomListQuery, roomSummaries, type RoomListRow } from "#app/features/chat/room-views.server.ts";
import { applyTradeStep, ChatError, chooseAnyCard } from "#app/features/chat/chat.server.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange, offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";
import { offerShareModel } from "#app/features/share/share.server.tsx";
import { ValidationError } from "#app/lib/validation.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
type Card = { id: string; name: string; rarity: string };
let d2: Card[]; // ◆◆ outside the pack a test closes
let d2closing: Card[]; // ◆◆ only in the pack the rule test closes
let d3: Card[]; // ◆◆◆
let s3: Card[]; // ☆☆☆: not tradeable by default

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  d2 = await catalogueCards(db, "◆◆", 8, { onlyPack: "mewtwo" });
  d2closing = await catalogueCards(db, "◆◆", 2, { onlyPack: "pikachu" });
  d3 = await catalogueCards(db, "◆◆◆", 4, { onlyPack: "mewtwo" });
  s3 = await catalogueCards(db, "☆☆☆", 1);
});
afterAll(async () => {
  await database?.close();
});

const named = (cards: Card[]) => cards.map((c) => ({ cardId: c.id, count: 1 }));
/** An offer through the form's one check, as the page form and the JSON API send it. */
const input = (o: { give?: Card[]; want?: Card[]; giveAny?: boolean; wantAny?: boolean }) =>
  parseOfferInput({ give: named(o.give ?? []), want: named(o.want ?? []), giveAny: o.giveAny ?? false, wantAny: o.wantAny ?? false, comment: "" });
const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (e: unknown) => (e instanceof TradeError ? e.code : e),
  );

describe("何でも可 offers", () => {
  it("post with one side 何でも可: the named side must be tradeable now; both sides, or a side with nothing, are refused", async () => {
    const user = await createUser(db);
    const { id } = await createOffer(db, user.id, input({ give: [d2[0]], wantAny: true }));
    const offer = await getOffer(db, id);
    expect(offer).toMatchObject({ giveAny: false, wantAny: true, want: [] });
    expect(offer!.give.map((c) => c.cardId)).toEqual([d2[0].id]);

    // The form: the checkbox turns the side to 何でも可 and drops cards still posted for it.
    const form = new FormData();
    form.append("want", `${d2[1].id}*1`);
    form.append("give", `${d2[2].id}*2`);
    form.append("wantAny", "1");
    expect(parseOfferInput(offerFieldsFromForm(form))).toMatchObject({ give: [{ cardId: d2[2].id, count: 2 }], want: [], wantAny: true, giveAny: false });

    expect(() => input({ giveAny: true, wantAny: true, give: [d2[0]] })).toThrow(ValidationError);
    expect(() => input({ wantAny: true })).toThrow(ValidationError);
    expect(await refusal(() => createOffer(db, user.id, { give: [], want: named([d2[1]]), giveAny: true, wantAny: true, comment: "" }))).toBe("any_both_sides");
    expect(await refusal(() => createOffer(db, user.id, { give: [], want: [], wantAny: true, comment: "" }))).toBe("give_required");
    // The trade rules still apply to the named side: ☆☆☆ is not tradeable.
    expect(await refusal(() => createOffer(db, user.id, input({ give: [s3[0]], wantAny: true })))).toBe("not_tradeable");
    // And no same-rarity pair is needed: any card of ◆◆ can come back.
    const mixed = await createOffer(db, user.id, input({ give: [d2[3], d3[0]], wantAny: true }));
    expect((await getOffer(db, mixed.id))!.give).toHaveLength(2);
  });

  it("マッチ: a 求 何でも可 offer pairs with offers wanting its card and giving one of the same rarity, both ways; 譲 何でも可 likewise; other rarities do not", async () => {
    const anyone = await createUser(db); // gives d2[4], takes any ◆◆
    const taker = await createUser(db); // gives d2[5], wants d2[4]
    const wrong = await createUser(db); // gives ◆◆◆, wants d2[4]
    const anyOffer = await createOffer(db, anyone.id, input({ give: [d2[4]], wantAny: true }));
    const takerOffer = await createOffer(db, taker.id, input({ give: [d2[5]], want: [d2[4]] }));
    const wrongOffer = await createOffer(db, wrong.id, input({ give: [d3[1]], want: [d2[4], d3[2]] }));

    const takerMatches = await listMatches(db, taker.id);
    expect(takerMatches.map((m) => m.id)).toEqual([anyOffer.id]);
    expect(takerMatches[0]).toMatchObject({ fitting: 1, wantAny: true });
    expect(takerMatches[0].pairs).toEqual([{ rarity: "◆◆", give: [d2[4].id], want: [d2[5].id], fitting: 1 }]);
    // From the 何でも可 side: the partner's ◆◆ card is what comes back; the ◆◆◆ giver does not fit.
    const anyMatches = (await listMatches(db, anyone.id)).map((m) => m.id);
    expect(anyMatches).toContain(takerOffer.id);
    expect(anyMatches).not.toContain(wrongOffer.id);
    // Two 求 何でも可 offers of one rarity fit each other too: each names the card it gives.
    const otherAny = await createOffer(db, (await createUser(db)).id, input({ give: [d2[2]], wantAny: true }));
    expect((await listMatches(db, anyone.id)).map((m) => m.id)).toContain(otherAny.id);
    expect(await listMatches(db, wrong.id)).toEqual([]);

    // The 何でも可 owner heard of the new offer that fits it.
    const heard = await rowsOf<{ user_id: string }>(db, sql`select user_id from notifications where kind = 'match' and offer_id = ${takerOffer.id}::uuid`);
    expect(heard.map((r) => r.user_id)).toEqual([anyone.id]);

    // 譲 何でも可: wants d2[6], gives any ◆◆ card the partner wants from their own offers.
    const giver = await createUser(db);
    const seeker = await createUser(db); // gives d2[6], wants d2[7]
    const giverOffer = await createOffer(db, giver.id, input({ giveAny: true, want: [d2[6]] }));
    const seekerOffer = await createOffer(db, seeker.id, input({ give: [d2[6]], want: [d2[7]] }));
    const seekerMatches = await listMatches(db, seeker.id);
    expect(seekerMatches.map((m) => m.id)).toContain(giverOffer.id);
    expect(seekerMatches.find((m) => m.id === giverOffer.id)!.pairs).toEqual([{ rarity: "◆◆", give: [d2[7].id], want: [d2[6].id], fitting: 1 }]);
    expect((await listMatches(db, giver.id)).map((m) => m.id)).toContain(seekerOffer.id);
    const heardGiver = await rowsOf<{ user_id: string }>(db, sql`select user_id from notifications where kind = 'match' and offer_id = ${seekerOffer.id}::uuid`);
    expect(heardGiver.map((r) => r.user_id)).toContain(giver.id);
  });

  it("マッチ from both sides: 譲 X / 求 何でも可 and 譲 何でも可 / 求 X see each other (the 何でも可 giver names the card in the room)", async () => {
    const cards = (await catalogueCards(db, "◆◆", 12, { onlyPack: "mewtwo" })).slice(10);
    const a = await createUser(db); // gives X, takes any ◆◆
    const b = await createUser(db); // gives any ◆◆, wants X
    const aOffer = await createOffer(db, a.id, input({ give: [cards[0]], wantAny: true }));
    const bOffer = await createOffer(db, b.id, input({ giveAny: true, want: [cards[0]] }));
    const aMatches = await listMatches(db, a.id);
    expect(aMatches.map((m) => m.id)).toContain(bOffer.id);
    expect(aMatches.find((m) => m.id === bOffer.id)).toMatchObject({ fitting: 1, giveAny: true });
    const bMatches = await listMatches(db, b.id);
    expect(bMatches.map((m) => m.id)).toContain(aOffer.id);
    expect(bMatches.find((m) => m.id === aOffer.id)).toMatchObject({ fitting: 1, wantAny: true });
    // B answers A's offer: the room and B's room list know which side is 何でも可 (it names no card).
    const { roomId } = await openChatRoomForOffer(db, { offerId: aOffer.id, userId: b.id });
    expect((await getRoomView(db, roomId, b.id)).offer).toMatchObject({ giveAny: false, wantAny: true });
    const [listed] = await roomSummaries(db, b.id, await rowsOf<RoomListRow>(db, roomListQuery(b.id)));
    expect(listed).toMatchObject({ id: roomId, role: "partner", giveAny: false, wantAny: true });
    // Each heard of the other's offer when it was posted (the same rule as マッチ).
    const heard = await rowsOf<{ user_id: string }>(db, sql`select user_id from notifications where kind = 'match' and offer_id = ${bOffer.id}::uuid`);
    expect(heard.map((r) => r.user_id)).toContain(a.id);
  });

  it("the board's card filters find 何でも可 offers by rarity, and the share image says 何でも可 with the rarity", async () => {
    const user = await createUser(db);
    const { id } = await createOffer(db, user.id, input({ give: [d3[3]], wantAny: true }));
    const wanting = async (cardId: string) => (await listBoard(db, { filters: { want: cardId }, limit: 50 })).offers.map((o) => o.id);
    expect(await wanting(d3[2].id)).toContain(id); // any ◆◆◆ is wanted
    expect(await wanting(d2[1].id)).not.toContain(id); // ◆◆ is not
    const model = offerShareModel((await getOffer(db, id))!);
    expect(model).toMatchObject({ want: [], anyWant: "何でも可（◆◆◆）" });
  });

  it("a rule change that closes the named card's pack closes the 何でも可 offer too (marked) and takes it out of マッチ", async () => {
    const admin = await createUser(db, { role: "admin" });
    const anyone = await createUser(db);
    const taker = await createUser(db);
    const anyOffer = await createOffer(db, anyone.id, input({ give: [d2closing[0]], wantAny: true }));
    await createOffer(db, taker.id, input({ give: [d2[0]], want: [d2closing[0]] }));
    expect((await listMatches(db, taker.id)).map((m) => m.id)).toContain(anyOffer.id);
    const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "pack", target: "pikachu", tradeable: false, effectiveAt: jst(-1), note: "テスト" }), admin.id);
    const offer = (await getOffer(db, anyOffer.id))!;
    expect((await offersClosedByRules(db, [offer])).has(anyOffer.id)).toBe(true);
    expect((await listMatches(db, taker.id)).map((m) => m.id)).not.toContain(anyOffer.id);
  });

  it("in the room, the partner names the 何でも可 card: of the other side's rarity and tradeable now, before 条件合意, which waits for it; both sides and the room list see it", async () => {
    const admin = await createUser(db, { role: "admin" });
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id: offerId } = await createOffer(db, owner.id, input({ give: [d2[3]], wantAny: true }));
    const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
    const chatRefusal = (run: () => Promise<unknown>) =>
      run().then(
        () => null,
        (e: unknown) => (e instanceof ChatError ? e.code : e),
      );

    // Nothing named yet: 条件合意 waits, and the room says 何でも可.
    expect(await chatRefusal(() => applyTradeStep(db, { roomId, userId: partner.id, step: "agree" }))).toBe("card_not_chosen");
    expect(await chatRefusal(() => applyTradeStep(db, { roomId, userId: owner.id, step: "agree" }))).toBe("card_not_chosen");
    expect((await getRoomState(db, roomId, owner.id)).chosenCard).toBeNull();

    // Only the partner names it; only a card of the other side's rarity that can be traded now.
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: owner.id, cardId: d2[4].id }))).toBe("step_not_allowed");
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: partner.id, cardId: d3[0].id }))).toBe("card_wrong_rarity");
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: partner.id, cardId: "no-such-card" }))).toBe("card_not_found");
    // The pikachu pack, closed by a rule in the test above.
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: partner.id, cardId: d2closing[1].id }))).toBe("card_not_tradeable");
    expect((await getRoomState(db, roomId, owner.id)).chosenCard).toBeNull();

    const chosen = await chooseAnyCard(db, { roomId, userId: partner.id, cardId: d2[4].id });
    expect(chosen).toMatchObject({ recipientId: owner.id, message: { kind: "system", body: "card_chosen", senderId: partner.id } });
    for (const reader of [owner.id, partner.id]) {
      expect((await getRoomState(db, roomId, reader)).chosenCard).toMatchObject({ cardId: d2[4].id, side: "want", rarity: "◆◆", count: 1 });
      expect((await getRoomView(db, roomId, reader)).chosenCard).toMatchObject({ cardId: d2[4].id, side: "want" });
    }
    const [summary] = await roomSummaries(db, owner.id, (await rowsOf<RoomListRow>(db, roomListQuery(owner.id))).filter((r) => r.id === roomId));
    expect(summary.offerCards.filter((c) => c.side === "want").map((c) => c.cardId)).toEqual([d2[4].id]);
    // The owner hears of it like a step.
    const [notice] = await rowsOf<{ kind: string; detail: string }>(db, sql`select kind, detail from notifications where user_id = ${owner.id} and room_id = ${roomId}::uuid`);
    expect(notice).toEqual({ kind: "step", detail: "card_chosen" });

    // An agreement pressed before another card is named is taken back: nobody is held to a card they did not see.
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    expect((await getRoomState(db, roomId, owner.id)).progress.ownerAgreed).toBe(true);
    const [charizardOnly] = await catalogueCards(db, "◆◆", 1, { onlyPack: "charizard" });
    await chooseAnyCard(db, { roomId, userId: partner.id, cardId: charizardOnly.id });
    expect((await getRoomState(db, roomId, owner.id)).progress.ownerAgreed).toBe(false);
    await applyTradeStep(db, { roomId, userId: owner.id, step: "agree" });
    await applyTradeStep(db, { roomId, userId: partner.id, step: "agree" });
    expect((await getRoomState(db, roomId, owner.id)).progress.agreed).toBe(true);
    // Once both agreed the card stays as agreed.
    expect(await chatRefusal(() => chooseAnyCard(db, { roomId, userId: partner.id, cardId: d2[7].id }))).toBe("step_not_allowed");

    // A rule closing the named card stops the steps like one closing the offer's own card.
    const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "pack", target: "charizard", tradeable: false, effectiveAt: jst(-1), note: "テスト" }), admin.id);
    expect((await getRoomState(db, roomId, owner.id)).ruleClosedCards.map((c) => c.cardId)).toEqual([charizardOnly.id]);
    expect(await chatRefusal(() => applyTradeStep(db, { roomId, userId: owner.id, step: "friend_requested" }))).toBe("not_tradeable");
  });

  it("an offer naming both sides has no card to choose", async () => {
    const owner = await createUser(db);
    const partner = await createUser(db);
    const { id: offerId } = await createOffer(db, owner.id, input({ give: [d3[1]], want: [d3[2]] }));
    const { roomId } = await openChatRoomForOffer(db, { offerId, userId: partner.id });
    const refused = await chooseAnyCard(db, { roomId, userId: partner.id, cardId: d3[3].id }).catch((e: unknown) => (e instanceof ChatError ? e.code : e));
    expect(refused).toBe("step_not_allowed");
  });
});
