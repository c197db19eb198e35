import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { profiles } from "#app/db/schema/index.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { rarityTradeCosts } from "#app/features/cards/cards.server.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { saveCollectionSettings, setCardCounts, type CollectionSettings } from "#app/features/collection/collection.server.ts";
import { forgetTradeCandidates, listTradeCandidates, listTradeCandidatesWanting, proposeTrade, tradeCandidateCounts, tradeCandidateWith, type TradeCandidate } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange } from "#app/features/trades/trade-rules.server.ts";
import { eq } from "drizzle-orm";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
type Card = { id: string; name: string; rarity: string };
let pool: Card[]; // ◆ cards only in the mewtwo pack: each test takes its own
let closable: Card[]; // ◆ cards only in the pikachu pack, which one test closes by a rule
let metPool: Card[]; // ◆◆◆◆ cards only in the mewtwo pack, for the met-want test
let deckPool: Card[]; // ◆◆◆ cards only in the charizard pack, for the deck test (before the pack closes)
let tripletPool: Card[]; // ◆◆◆ cards only in the mewtwo pack, for the second-tap and page tests
let keptPool: Card[]; // ◆◆ cards only in the mewtwo pack, for the kept-result tests
let closableLater: Card; // a ◆◆ card only in the charizard pack, which the kept-result test closes
let costs: Record<string, number>;
let setOfPool: string;
let otherSet: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  pool = await catalogueCards(db, "◆", 25, { onlyPack: "mewtwo" });
  tripletPool = await catalogueCards(db, "◆◆◆", 14, { onlyPack: "mewtwo" });
  deckPool = await catalogueCards(db, "◆◆◆", 3, { onlyPack: "charizard" });
  metPool = await catalogueCards(db, "◆◆◆◆", 2, { onlyPack: "mewtwo" });
  keptPool = await catalogueCards(db, "◆◆", 11, { onlyPack: "mewtwo" });
  closable = await catalogueCards(db, "◆", 2, { onlyPack: "pikachu" });
  [closableLater] = await catalogueCards(db, "◆◆", 1, { onlyPack: "charizard" });
  costs = await rarityTradeCosts(db);
  const [row] = await rowsOf<{ set_code: string }>(db, sql`select set_code from packs where id = 'mewtwo'`);
  setOfPool = row!.set_code;
  const [other] = await rowsOf<{ set_code: string }>(db, sql`select set_code from packs where set_code <> ${setOfPool} limit 1`);
  otherSet = other!.set_code;
});
afterAll(async () => {
  await database?.close();
});

let taken = 0;
let keptTaken = 0;
const cardsFor = (n: number) => {
  const list = pool.slice(taken, taken + n);
  taken += n;
  if (list.length < n) throw new Error("card pool used up");
  return list;
};
let tripletTaken = 0;
const tripletCardsFor = (n: number) => {
  const list = tripletPool.slice(tripletTaken, tripletTaken + n);
  tripletTaken += n;
  if (list.length < n) throw new Error("card pool used up");
  return list;
};
const keptCardsFor = (n: number) => {
  const list = keptPool.slice(keptTaken, keptTaken + n);
  keptTaken += n;
  if (list.length < n) throw new Error("card pool used up");
  return list;
};

/** A player with these counts, ほしいカード and settings (opted in unless said). */
async function player(options: { counts?: Record<string, number>; wanted?: string[]; settings?: Partial<CollectionSettings>; lastActiveAt?: Date } = {}) {
  const user = await createUser(db, { lastActiveAt: options.lastActiveAt });
  const counts = Object.entries(options.counts ?? {}).map(([cardId, count]) => ({ cardId, count }));
  if (counts.length) await setCardCounts(db, user.id, counts);
  for (const cardId of options.wanted ?? []) await db.execute(sql`insert into wanted_cards (user_id, card_id) values (${user.id}, ${cardId})`);
  await saveCollectionSettings(db, user.id, { showProgress: false, useForTrades: true, wantMode: "wants", ...options.settings });
  return user;
}

/**
 * Another player's change publishes nothing: my kept result shows it within a minute. Tests of
 * the finder itself forget the kept results after such a change, as if the minute had passed.
 */
async function theyChange(change: () => Promise<unknown>): Promise<void> {
  await change();
  forgetTradeCandidates();
}

const candidateOf = async (userId: string, partnerId: string): Promise<TradeCandidate | undefined> =>
  (await listTradeCandidates(db, userId)).candidates.find((c) => c.userId === partnerId);
const pairIds = (candidate: TradeCandidate | undefined) => candidate?.pairs.map((p) => `${p.give.id}>${p.get.id}`) ?? [];
const settingsOf = (settings: Partial<CollectionSettings>): Pick<CollectionSettings, "showProgress" | "useForTrades"> & Partial<CollectionSettings> => ({
  showProgress: false,
  useForTrades: true,
  ...settings,
});

describe("trade candidates: spare and wants", () => {
  it("pairs my spare card with their spare card when each wants the other's, with the shinedust cost", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const seen = await candidateOf(me.id, them.id);
    expect(seen).toMatchObject({ displayName: them.name, pairCount: 1 });
    expect(seen!.pairs).toEqual([expect.objectContaining({ give: expect.objectContaining({ id: x.id }), get: expect.objectContaining({ id: y.id }), rarity: "◆", cost: costs["◆"] })]);
    expect(typeof costs["◆"]).toBe("number");
    // And the other way round.
    expect(pairIds(await candidateOf(them.id, me.id))).toEqual([`${y.id}>${x.id}`]);
  });

  it("counts only copies above the keep count, in the rarities each player trades", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ keepCount: 2 })));
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ keepCount: 1, tradeRarities: ["◆◆"] })));
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ tradeRarities: ["◆"] })));
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    // My own keep count: with 2 kept, my two copies are not spare.
    await saveCollectionSettings(db, me.id, settingsOf({ keepCount: 2 }));
    expect((await listTradeCandidates(db, me.id)).emptyReason).toBe("no_spare");
    await saveCollectionSettings(db, me.id, settingsOf({ keepCount: 0 }));
    expect(await candidateOf(me.id, them.id)).toBeDefined();
  });

  it("a card on their ほしいカード list that they have spare is one they give, not one they want", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    // They keep none, so their one x is spare: x on their list does not make them want mine.
    const them = await player({ counts: { [y.id]: 2, [x.id]: 1 }, wanted: [x.id], settings: { keepCount: 0 } });
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => setCardCounts(db, them.id, [{ cardId: x.id, count: 0 }]));
    expect(pairIds(await candidateOf(me.id, them.id))).toEqual([`${x.id}>${y.id}`]);
  });

  it("a ほしいカード want their collection has since met is not a want; lowered again, it is", async () => {
    const [x, y] = metPool;
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    expect(pairIds(await candidateOf(me.id, them.id))).toEqual([`${x.id}>${y.id}`]);
    await theyChange(() => setCardCounts(db, them.id, [{ cardId: x.id, count: 1 }]));
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => setCardCounts(db, them.id, [{ cardId: x.id, count: 0 }]));
    expect(pairIds(await candidateOf(me.id, them.id))).toEqual([`${x.id}>${y.id}`]);
  });

  it("wants missing cards of the chosen sets, the ほしいカード list, or both, as each player chose", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    // They miss x in its set (no row) but x is not on their list.
    const them = await player({ counts: { [y.id]: 2 }, settings: { wantMode: "wants" } });
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ wantMode: "missing", wantSets: [setOfPool] })));
    expect(pairIds(await candidateOf(me.id, them.id))).toEqual([`${x.id}>${y.id}`]);
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ wantMode: "missing", wantSets: [otherSet] })));
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({ wantMode: "both", wantSets: null })));
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    // Owning one copy of x, they no longer miss it.
    await theyChange(() => setCardCounts(db, them.id, [{ cardId: x.id, count: 1 }]));
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
  });

  it("refuses an unknown rarity or set in the settings, and keeps trade settings a client leaves out", async () => {
    const me = await player({ settings: { keepCount: 3, wantMode: "missing" } });
    await expect(saveCollectionSettings(db, me.id, settingsOf({ tradeRarities: ["◆◆◆◆◆"] }))).rejects.toMatchObject({ code: "unknown_rarity" });
    await expect(saveCollectionSettings(db, me.id, settingsOf({ wantSets: ["NO-SUCH-SET"] }))).rejects.toMatchObject({ code: "unknown_want_set", status: 400 });
    expect(await saveCollectionSettings(db, me.id, { showProgress: true, useForTrades: true })).toMatchObject({ keepCount: 3, wantMode: "missing", showProgress: true });
  });
});

describe("trade candidates: who appears", () => {
  it("never shows a player who did not opt in, and an opted-out player is told so and cannot propose", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id], settings: { useForTrades: false } });
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await theyChange(() => saveCollectionSettings(db, them.id, settingsOf({})));
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    await saveCollectionSettings(db, me.id, settingsOf({ useForTrades: false }));
    expect(await listTradeCandidates(db, me.id)).toMatchObject({ candidates: [], emptyReason: "not_opted_in" });
    await expect(proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja")).rejects.toMatchObject({ code: "not_opted_in" });
    // The other side does not see me either.
    expect(await candidateOf(them.id, me.id)).toBeUndefined();
  });

  it("leaves out players blocked either way, suspended or deleted", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const blocked = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const blocking = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const suspended = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const deleted = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const fine = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    await blockUser(db, me.id, blocked.id);
    await blockUser(db, blocking.id, me.id);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.id));
    await db.update(profiles).set({ deletedAt: new Date() }).where(eq(profiles.userId, deleted.id));
    const ids = (await listTradeCandidates(db, me.id)).candidates.map((c) => c.userId);
    expect(ids).toContain(fine.id);
    for (const gone of [blocked, blocking, suspended, deleted]) expect(ids).not.toContain(gone.id);
  });

  it("shows players active in the last 14 days only", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const day = 24 * 3600_000;
    const recent = await player({ counts: { [y.id]: 2 }, wanted: [x.id], lastActiveAt: new Date(Date.now() - 13 * day) });
    const away = await player({ counts: { [y.id]: 2 }, wanted: [x.id], lastActiveAt: new Date(Date.now() - 15 * day) });
    const ids = (await listTradeCandidates(db, me.id)).candidates.map((c) => c.userId);
    expect(ids).toContain(recent.id);
    expect(ids).not.toContain(away.id);
  });

  it("ranks by the number of pairs, then by last activity", async () => {
    const [x1, x2, y1, y2] = cardsFor(4);
    const me = await player({ counts: { [x1.id]: 2, [x2.id]: 2 }, wanted: [y1.id, y2.id] });
    const hour = 3600_000;
    const two = await player({ counts: { [y1.id]: 2, [y2.id]: 2 }, wanted: [x1.id, x2.id], lastActiveAt: new Date(Date.now() - 5 * hour) });
    const oneOlder = await player({ counts: { [y1.id]: 2 }, wanted: [x1.id], lastActiveAt: new Date(Date.now() - 3 * hour) });
    const oneRecent = await player({ counts: { [y2.id]: 3 }, wanted: [x2.id], lastActiveAt: new Date(Date.now() - hour) });
    const { candidates } = await listTradeCandidates(db, me.id);
    const order = candidates.map((c) => c.userId).filter((id) => [two.id, oneOlder.id, oneRecent.id].includes(id));
    expect(order).toEqual([two.id, oneRecent.id, oneOlder.id]);
    expect(candidates.find((c) => c.userId === two.id)).toMatchObject({ pairCount: 2 });
  });
});

/** Three new rooms on `ownerId`'s offers whose partners wrote two days ago and got no answer: a record of rarely answering. */
async function neverAnswers(ownerId: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const partner = await createUser(db);
    const [offer] = await rowsOf<{ id: string }>(db, sql`insert into trade_offers (owner_id, expires_at) values (${ownerId}, now() + interval '1 day') returning id`);
    const [room] = await rowsOf<{ id: string }>(db, sql`insert into chat_rooms (offer_id, owner_id, partner_id) values (${offer.id}, ${ownerId}, ${partner.id}) returning id`);
    await db.execute(sql`insert into chat_messages (room_id, seq, sender_id, kind, body, created_at) values (${room.id}, 1, ${partner.id}, 'text', 'こんにちは', now() - interval '2 days')`);
  }
}

describe("trade candidates: the response record", () => {
  it("puts a player who rarely answers after one with as many pairs, however recently active", async () => {
    const [x, y] = cardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const hour = 3600_000;
    const silent = await player({ counts: { [y.id]: 2 }, wanted: [x.id], lastActiveAt: new Date(Date.now() - hour) });
    const answering = await player({ counts: { [y.id]: 2 }, wanted: [x.id], lastActiveAt: new Date(Date.now() - 5 * hour) });
    const before = (await listTradeCandidates(db, me.id)).candidates.map((c) => c.userId).filter((id) => id === silent.id || id === answering.id);
    expect(before).toEqual([silent.id, answering.id]);
    await theyChange(() => neverAnswers(silent.id));
    const { candidates } = await listTradeCandidates(db, me.id);
    expect(candidates.map((c) => c.userId).filter((id) => id === silent.id || id === answering.id)).toEqual([answering.id, silent.id]);
    expect(candidates.find((c) => c.userId === silent.id)).toMatchObject({ answersRarely: true, record: { rooms: 3, answered: 0 } });
  });
});

describe("trade candidates: trade rules and proposals", () => {
  it("drops a pair at once when a trade rule closes one of its cards", async () => {
    const [x] = cardsFor(1);
    const [y] = closable;
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    expect(pairIds(await candidateOf(me.id, them.id))).toEqual([`${x.id}>${y.id}`]);
    const admin = await createUser(db, { role: "admin" });
    const past = new Date(Date.now() - 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "pack", target: "pikachu", tradeable: false, effectiveAt: past, note: "closed" }), admin.id);
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
    await expect(proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja")).rejects.toMatchObject({ code: "unknown_partner" });
  });

  it("a proposal posts the offer, opens the room with that player and notifies them", async () => {
    const [x, y, z] = cardsFor(3);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    await expect(proposeTrade(db, me.id, them.id, [{ give: x.id, get: z.id }], "ja")).rejects.toMatchObject({ code: "pair_not_available" });
    const { roomId, offerId } = await proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja");
    const [room] = await rowsOf<{ owner_id: string; partner_id: string; offer_id: string }>(db, sql`select owner_id, partner_id, offer_id from chat_rooms where id = ${roomId}`);
    expect(room).toEqual({ owner_id: me.id, partner_id: them.id, offer_id: offerId });
    const offerCards = await rowsOf<{ card_id: string; side: string }>(db, sql`select card_id, side from trade_offer_cards where offer_id = ${offerId} order by side`);
    expect(offerCards).toEqual([{ card_id: x.id, side: "give" }, { card_id: y.id, side: "want" }]);
    const [message] = await rowsOf<{ sender_id: string; body: string }>(db, sql`select sender_id, body from chat_messages where room_id = ${roomId}`);
    expect(message.sender_id).toBe(me.id);
    expect(message.body).toContain(x.name);
    expect(message.body).toContain(y.name);
    const notified = await rowsOf<{ kind: string; room_id: string }>(db, sql`select kind, room_id from notifications where user_id = ${them.id}`);
    expect(notified).toContainEqual({ kind: "message", room_id: roomId });
  });
});

describe("trade candidates: a second tap", () => {
  it("a second proposal of the same pairs to the same player, at once or later, opens the first one's room and posts no second offer", async () => {
    const [x, y] = tripletCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const pairs = [{ give: x.id, get: y.id }];
    const [first, second] = await Promise.all([proposeTrade(db, me.id, them.id, pairs, "ja"), proposeTrade(db, me.id, them.id, pairs, "ja")]);
    expect(second).toEqual(first);
    expect(await proposeTrade(db, me.id, them.id, pairs, "ja")).toEqual(first);
    const offers = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from trade_offers where owner_id = ${me.id}`);
    expect(offers[0].n).toBe(1);
    const messages = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from chat_messages where room_id = ${first.roomId}`);
    expect(messages[0].n).toBe(1);
  });

  it("a proposal of other pairs, or after the first offer was closed, is a new offer", async () => {
    const [x, y, z, w] = tripletCardsFor(4);
    const me = await player({ counts: { [x.id]: 2, [z.id]: 2 }, wanted: [y.id, w.id] });
    const them = await player({ counts: { [y.id]: 2, [w.id]: 2 }, wanted: [x.id, z.id] });
    const first = await proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja");
    const other = await proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }, { give: z.id, get: w.id }], "ja");
    expect(other.offerId).not.toBe(first.offerId);
    await db.execute(sql`update trade_offers set status = 'closed' where id = ${first.offerId}`);
    const again = await proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja");
    expect(again.offerId).not.toBe(first.offerId);
  });

  it("while one proposal is being made elsewhere (another instance), the same one is refused, and may be sent once it is done", async () => {
    const [x, y] = tripletCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const pairs = [{ give: x.id, get: y.id }];
    // The other instance's count of this proposal, as its take leaves it while it runs.
    const [{ action }] = await rowsOf<{ action: string }>(
      db,
      sql`select 'trade-proposal:' || left(encode(sha256(convert_to(${[them.id, `${x.id}|${y.id}`].join(",")}, 'UTF8')), 'hex'), 24) || '/minute' as action`,
    );
    await db.execute(sql`insert into trade_rate_limits (user_id, action, window_start, count) values (${me.id}, ${action}, date_trunc('minute', now()), 1)`);
    await expect(proposeTrade(db, me.id, them.id, pairs, "ja")).rejects.toMatchObject({ code: "proposal_in_progress" });
    // Counted in the minute before, still being made across the minute's turn: refused too.
    await db.execute(sql`update trade_rate_limits set window_start = date_trunc('minute', now()) - interval '1 minute' where user_id = ${me.id} and action = ${action}`);
    await expect(proposeTrade(db, me.id, them.id, pairs, "ja")).rejects.toMatchObject({ code: "proposal_in_progress" });
    await db.execute(sql`delete from trade_rate_limits where user_id = ${me.id} and action = ${action}`);
    const made = await proposeTrade(db, me.id, them.id, pairs, "ja");
    const [left] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from trade_rate_limits where user_id = ${me.id} and action like 'trade-proposal:%'`);
    expect(left.n).toBe(0);
    expect(made.roomId).toBeTruthy();
  });
});

describe("trade candidates: one player, and a page of players", () => {
  it("counts my pairs with each listed player who is my candidate, and shows one player whether or not they rank", async () => {
    const [x, y, z, w] = tripletCardsFor(4);
    const me = await player({ counts: { [x.id]: 2, [z.id]: 2 }, wanted: [y.id, w.id] });
    const two = await player({ counts: { [y.id]: 2, [w.id]: 2 }, wanted: [x.id, z.id] });
    const one = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const none = await player({ counts: { [y.id]: 2 } });
    const optedOut = await player({ counts: { [y.id]: 2 }, wanted: [x.id], settings: { useForTrades: false } });
    const counts = await tradeCandidateCounts(db, me.id, [two.id, one.id, none.id, optedOut.id, me.id]);
    expect(Object.fromEntries(counts)).toEqual({ [two.id]: 2, [one.id]: 1 });
    expect((await tradeCandidateWith(db, me.id, two.id))?.pairCount).toBe(2);
    expect(await tradeCandidateWith(db, me.id, none.id)).toBeNull();
    expect(await tradeCandidateWith(db, me.id, me.id)).toBeNull();
    // Not opted in myself: nothing, whoever is listed.
    const stranger = await player({ counts: { [x.id]: 2 }, wanted: [y.id], settings: { useForTrades: false } });
    expect((await tradeCandidateCounts(db, stranger.id, [two.id, one.id])).size).toBe(0);
  });

  it("for a deck's missing cards: those cards stand for what I want, whatever my settings say", async () => {
    const [x, y, z] = deckPool;
    const me = await player({ counts: { [x.id]: 2 } });
    const them = await player({ counts: { [y.id]: 2, [z.id]: 2 }, wanted: [x.id] });
    expect((await listTradeCandidates(db, me.id)).emptyReason).toBe("no_wants");
    const forDeck = await listTradeCandidatesWanting(db, me.id, [y.id]);
    expect(forDeck.candidates.map((c) => [c.userId, pairIds(c)])).toEqual([[them.id, [`${x.id}>${y.id}`]]]);
    expect((await listTradeCandidatesWanting(db, me.id, [])).emptyReason).toBe("no_wants");
    // A proposal of such a pair is checked under the same wants; under my settings' it is not one.
    await expect(proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja")).rejects.toMatchObject({ code: "unknown_partner" });
    const { offerId } = await proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja", { wanting: [y.id] });
    const offerCards = await rowsOf<{ card_id: string; side: string }>(db, sql`select card_id, side from trade_offer_cards where offer_id = ${offerId} order by side`);
    expect(offerCards).toEqual([{ card_id: x.id, side: "give" }, { card_id: y.id, side: "want" }]);
  });

  it("follows my own change at once, as my list does", async () => {
    const [x, y] = tripletCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    expect((await tradeCandidateCounts(db, me.id, [them.id])).get(them.id)).toBe(1);
    await setCardCounts(db, me.id, [{ cardId: x.id, count: 1 }]);
    expect((await tradeCandidateCounts(db, me.id, [them.id])).size).toBe(0);
  });
});

describe("trade candidates: the kept result", () => {
  afterEach(() => {
    // The cache's last clock reading is dropped by its pending timer: fire it before going back to
    // the real clock, and forget results kept at the moved time.
    if (vi.isFakeTimers()) vi.runOnlyPendingTimers();
    vi.useRealTimers();
    forgetTradeCandidates();
  });

  it("answers from the kept result until it expires: another player's change made in SQL shows a minute later", async () => {
    const [x, y] = keptCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    // The cache reads the clock through Date and keeps each reading until a 1 ms timer fires: let a
    // pending real timer fire (in-process queries never yield to timers), then move both.
    await new Promise((resolve) => setTimeout(resolve, 5));
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const first = await listTradeCandidates(db, me.id);
    expect(first.candidates.map((c) => c.userId)).toContain(them.id);
    // They keep their only spare copy now; nothing is published.
    await db.execute(sql`update collection_cards set count = 1, updated_at = now() where user_id = ${them.id} and card_id = ${y.id}`);
    const again = await listTradeCandidates(db, me.id);
    expect(again).toBe(first);
    vi.advanceTimersByTime(59_000);
    expect(await listTradeCandidates(db, me.id)).toBe(first);
    vi.advanceTimersByTime(2_000);
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
  });

  it("forgetting the kept results shows another player's change at once", async () => {
    const [x, y] = keptCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    await db.execute(sql`delete from wanted_cards where user_id = ${them.id}`);
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    forgetTradeCandidates();
    expect(await candidateOf(me.id, them.id)).toBeUndefined();
  });

  it("shares one computation between my concurrent requests", async () => {
    const [x, y] = keptCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    const [a, b] = await Promise.all([listTradeCandidates(db, me.id), listTradeCandidates(db, me.id)]);
    expect(a).toBe(b);
  });

  it("sees my own count change, want-list change, settings change and a trade-rule change at once", async () => {
    const [x, y, z] = keptCardsFor(3);
    const closed = closableLater;
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2, [z.id]: 2, [closed.id]: 2 }, wanted: [x.id] });
    // Something in the kept result that only a recomputation would change, to prove each step recomputed.
    const seen = async () => pairIds(await candidateOf(me.id, them.id));
    expect(await seen()).toEqual([`${x.id}>${y.id}`]);
    // My count: x is no longer spare (a count change on an existing row moves its latest update).
    await setCardCounts(db, me.id, [{ cardId: x.id, count: 1 }]);
    expect(await seen()).toEqual([]);
    await setCardCounts(db, me.id, [{ cardId: x.id, count: 3 }]);
    expect(await seen()).toEqual([`${x.id}>${y.id}`]);
    // My want list: y leaves it (a deletion changes the count), z joins it (an add moves the latest time).
    await db.execute(sql`delete from wanted_cards where user_id = ${me.id} and card_id = ${y.id}`);
    expect(await seen()).toEqual([]);
    await db.execute(sql`insert into wanted_cards (user_id, card_id) values (${me.id}, ${z.id})`);
    expect(await seen()).toEqual([`${x.id}>${z.id}`]);
    // My settings: keeping 3 copies, x is not spare.
    await saveCollectionSettings(db, me.id, settingsOf({ keepCount: 3 }));
    expect((await listTradeCandidates(db, me.id)).emptyReason).toBe("no_spare");
    await saveCollectionSettings(db, me.id, settingsOf({ keepCount: 1, wantMode: "wants" }));
    await db.execute(sql`delete from wanted_cards where user_id = ${me.id} and card_id = ${z.id}`);
    await db.execute(sql`insert into wanted_cards (user_id, card_id) values (${me.id}, ${closed.id})`);
    expect(await seen()).toEqual([`${x.id}>${closed.id}`]);
    // A trade rule (published on the board) closes the card I want (its only pack).
    const admin = await createUser(db, { role: "admin" });
    const past = new Date(Date.now() - 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
    await addTradeRuleChange(db, TradeRuleChangeSchema.parse({ scope: "pack", target: "charizard", tradeable: false, effectiveAt: past, note: "closed" }), admin.id);
    expect(await seen()).toEqual([]);
  });

  it("a proposal checks the pairs now, not against the kept result", async () => {
    const [x, y] = keptCardsFor(2);
    const me = await player({ counts: { [x.id]: 2 }, wanted: [y.id] });
    const them = await player({ counts: { [y.id]: 2 }, wanted: [x.id] });
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    await db.execute(sql`update collection_cards set count = 1, updated_at = now() where user_id = ${them.id} and card_id = ${y.id}`);
    expect(await candidateOf(me.id, them.id)).toBeDefined();
    await expect(proposeTrade(db, me.id, them.id, [{ give: x.id, get: y.id }], "ja")).rejects.toMatchObject({ code: "unknown_partner" });
  });
});
