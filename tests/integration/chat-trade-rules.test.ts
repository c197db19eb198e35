import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { Server as SocketServer } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles, tradeOffers } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { applyTradeStep, ChatError, listMessages, sendMessage } from "#app/features/chat/chat.server.ts";
import type { Ack, ClientToServerEvents, RoomState, ServerToClientEvents } from "#app/features/chat/protocol.ts";
import { getRoomState, getRoomView } from "#app/features/chat/room-views.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange } from "#app/features/trades/trade-rules.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { errorResponse } from "#app/lib/api.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { loader as roomPageLoader } from "#app/routes/chat.tsx";
import { attachRealtime, type Realtime } from "#server/realtime.ts";
import { createSessionCookie, newClientId } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

/**
 * A trade-rule change that closes a card of an offer mid-negotiation (docs/decisions/018): the
 * room's steps read the board's rule, through the service the socket handlers call too.
 */

type Card = { id: string; name: string; rarity: string };
type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let db: TestDatabase["db"];
let env: Env;
let context: AppLoadContext;
let http: Server;
let io: SocketServer;
let realtime: Realtime;
let socketUrl: string;
const clients: ChatClient[] = [];
let pikachu: Card[]; // ◆◆ only in the pack closed and reopened
let charizard: Card[]; // ◆◆ only in the pack closed after both agreed
let mewtwo: Card[]; // ◆◆ only in a pack no change touches
let dialga: Card[]; // ◆◆ only in the pack closed before a キャンセル

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  pikachu = await catalogueCards(db, "◆◆", 2, { onlyPack: "pikachu" });
  charizard = await catalogueCards(db, "◆◆", 2, { onlyPack: "charizard" });
  mewtwo = await catalogueCards(db, "◆◆", 2, { onlyPack: "mewtwo" });
  dialga = await catalogueCards(db, "◆◆", 2, { onlyPack: "dialga" });
  env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-chat-rules-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" });
  context = { db, env, cspNonce: "test" } as AppLoadContext;
  http = createServer();
  io = new SocketServer(http, { serveClient: false });
  realtime = await attachRealtime({ io, env, database, log: createLogger("silent") });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  socketUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const c of clients) c.close();
  if (io) await new Promise<void>((resolve) => io.close(() => resolve()));
  await realtime?.close();
  await database?.close();
});

/** A Japan-time `YYYY-MM-DDTHH:mm` as the admin form sends it, `minutes` from now. */
const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
const rule = (pack: string, tradeable: boolean, effectiveAt: string, until?: string) =>
  TradeRuleChangeSchema.parse({ scope: "pack", target: pack, tradeable, effectiveAt, note: "テスト用の変更", ...(until ? { until } : {}) });

/** An offer of `cards[0]` for `cards[1]` by a new owner, and the room a new partner opens with 交渉する. */
async function roomFor(cards: Card[]) {
  const owner = await createUser(db);
  const partner = await createUser(db);
  const offer = await createOffer(
    db,
    owner.id,
    OfferInputSchema.parse({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" }),
  );
  const { roomId } = await openChatRoomForOffer(db, { offerId: offer.id, userId: partner.id });
  const friendIds = new Map(
    (await db.select({ userId: profiles.userId, friendId: profiles.friendId }).from(profiles).where(inArray(profiles.userId, [owner.id, partner.id]))).map((r) => [r.userId, r.friendId]),
  );
  return { roomId, offerId: offer.id, owner, partner, ownerFriendId: friendIds.get(owner.id)!, partnerFriendId: friendIds.get(partner.id)! };
}

/** The refusal a step got, as an AppError. */
const refusal = (run: Promise<unknown>): Promise<ChatError> =>
  run.then(
    () => {
      throw new Error("the step went through");
    },
    (error: unknown) => {
      if (error instanceof ChatError) return error;
      throw error;
    },
  );

const offerStatus = async (offerId: string) => (await db.select({ status: tradeOffers.status }).from(tradeOffers).where(eq(tradeOffers.id, offerId)))[0].status;
const completedTrades = async (userId: string) => (await db.select({ n: profiles.completedTrades }).from(profiles).where(eq(profiles.userId, userId)))[0].n;

async function socketOf(userId: string): Promise<ChatClient> {
  const socket: ChatClient = connect(`${socketUrl}/chat`, { transports: ["websocket"], reconnection: false, extraHeaders: { cookie: await createSessionCookie(db, userId, SECRET) } });
  clients.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}
const call = <T extends object>(socket: ChatClient, event: string, payload: unknown): Promise<Ack<T>> =>
  new Promise((resolve) => (socket.emit as (e: string, p: unknown, cb: (r: Ack<T>) => void) => void)(event, payload, resolve));

describe("a rule change closes the card of a room's offer before both agreed", () => {
  it("条件合意 is refused (409 not_tradeable) over the service and the socket, friend IDs stay hidden, the room says why; chat goes on; the steps come back when the card reopens", async () => {
    const room = await roomFor(pikachu);
    const untouched = await roomFor(mewtwo);
    const admin = await createUser(db);
    // The owner agreed while the pack was open; then the pack closes until a set date.
    await applyTradeStep(db, { roomId: room.roomId, userId: room.owner.id, step: "agree" });
    await addTradeRuleChange(db, rule("pikachu", false, jst(-1), "2099-04-01T10:00"), admin.id);
    const before = await listMessages(db, room.roomId, room.owner.id);

    const refused = await refusal(applyTradeStep(db, { roomId: room.roomId, userId: room.partner.id, step: "agree" }));
    expect(refused.code).toBe("not_tradeable");
    expect(refused.status).toBe(409);
    const answer = errorResponse(refused, "ja");
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ code: "not_tradeable", error: "ルールの変更により、この募集のカードは今はトレードできないため、取引を進められません（チャットとキャンセルはできます）" });
    // Written in the reader's language without a card name in either (the room's notice names them).
    expect(refused.text("en")).toBe("A rule change means a card of this offer cannot be traded for now, so this trade cannot go on (chat and cancel still work)");

    // Nothing was written: no agreement, no system message, no friend IDs, the offer still 募集中.
    expect(await listMessages(db, room.roomId, room.owner.id)).toEqual(before);
    const view = await getRoomView(db, room.roomId, room.partner.id);
    expect(view.progress).toMatchObject({ ownerAgreed: true, partnerAgreed: false, agreed: false });
    expect(view.partner.friendId).toBeNull();
    const state = await getRoomState(db, room.roomId, room.partner.id);
    expect(state.friendIds).toBeNull();
    // The room says which cards and until when (the date the change has on the books).
    expect(state.ruleClosedCards).toEqual([
      { cardId: pikachu[0].id, name: pikachu[0].name, until: "2099-04-01T01:00:00.000Z" },
      { cardId: pikachu[1].id, name: pikachu[1].name, until: "2099-04-01T01:00:00.000Z" },
    ]);
    expect(await offerStatus(room.offerId)).toBe("open");

    // The room page's model carries the same state, so the page shows why and offers no step.
    const page = (await roomPageLoader({
      request: new Request(`http://127.0.0.1:3000/chat/${room.roomId}`, { headers: { cookie: await createSessionCookie(db, room.partner.id, SECRET) } }),
      params: { roomId: room.roomId },
      context,
    } as unknown as Parameters<typeof roomPageLoader>[0])) as unknown as { data: { room: { initialState: RoomState } } };
    expect(page.data.room.initialState.ruleClosedCards.map((c) => c.cardId)).toEqual([pikachu[0].id, pikachu[1].id]);
    expect(page.data.room.initialState.friendIds).toBeNull();

    // The socket answers the same refusal, in the socket's language.
    const socket = await socketOf(room.partner.id);
    expect(await call(socket, "chat:join", { roomId: room.roomId })).toMatchObject({ ok: true });
    expect(await call(socket, "chat:step", { roomId: room.roomId, step: "agree" })).toEqual({
      ok: false,
      code: "not_tradeable",
      message: "ルールの変更により、この募集のカードは今はトレードできないため、取引を進められません（チャットとキャンセルはできます）",
    });
    // Talking still works, over the socket and the service.
    expect(await call(socket, "chat:send", { roomId: room.roomId, clientId: newClientId(), body: "ルールが変わったみたいです" })).toMatchObject({ ok: true });
    await expect(sendMessage(db, { roomId: room.roomId, userId: room.owner.id, clientId: newClientId(), body: "再開まで待ちましょう" })).resolves.toMatchObject({ created: true });

    // A room whose offer the change does not touch goes on as before.
    expect((await getRoomState(db, untouched.roomId, untouched.owner.id)).ruleClosedCards).toEqual([]);
    await applyTradeStep(db, { roomId: untouched.roomId, userId: untouched.owner.id, step: "agree" });
    const agreedElsewhere = await applyTradeStep(db, { roomId: untouched.roomId, userId: untouched.partner.id, step: "agree" });
    expect(agreedElsewhere).toMatchObject({ progress: { agreed: true }, offerStatus: "negotiating" });
    expect((await getRoomView(db, untouched.roomId, untouched.partner.id)).partner.friendId).toBe(untouched.ownerFriendId);

    // The pack reopens (a later change): the notice goes and 条件合意 goes through, friend IDs shown.
    await addTradeRuleChange(db, rule("pikachu", true, jst(0)), admin.id);
    expect((await getRoomState(db, room.roomId, room.partner.id)).ruleClosedCards).toEqual([]);
    const agreed = await call<{ state: RoomState }>(socket, "chat:step", { roomId: room.roomId, step: "agree" });
    expect(agreed).toMatchObject({ ok: true, state: { progress: { agreed: true }, offerStatus: "negotiating", ruleClosedCards: [] } });
    expect((agreed as { state: RoomState }).state.friendIds).toEqual({ [room.owner.id]: room.ownerFriendId, [room.partner.id]: room.partnerFriendId });
    expect((await getRoomView(db, room.roomId, room.partner.id)).partner.friendId).toBe(room.ownerFriendId);
  });
});

describe("a rule change closes the card of a room's offer after both agreed", () => {
  it("friend IDs already shown stay shown; the later steps and 取引完了 wait for the card, キャンセル does not", async () => {
    const room = await roomFor(charizard);
    const admin = await createUser(db);
    for (const [userId, step] of [
      [room.owner.id, "agree"],
      [room.partner.id, "agree"],
      [room.owner.id, "friend_requested"],
    ] as const) {
      await applyTradeStep(db, { roomId: room.roomId, userId, step });
    }
    expect(await offerStatus(room.offerId)).toBe("negotiating");
    await addTradeRuleChange(db, rule("charizard", false, jst(-1)), admin.id);

    for (const step of ["game_trade_requested", "complete", "agree"] as const) {
      const refused = await refusal(applyTradeStep(db, { roomId: room.roomId, userId: room.owner.id, step }));
      expect({ step, code: refused.code, status: refused.status }).toEqual({ step, code: "not_tradeable", status: 409 });
    }
    const state = await getRoomState(db, room.roomId, room.owner.id);
    expect(state.progress).toMatchObject({ agreed: true, friendRequested: true, gameTradeRequested: false, completed: false });
    expect(state.friendIds).toEqual({ [room.owner.id]: room.ownerFriendId, [room.partner.id]: room.partnerFriendId });
    // No reopening date is on the books.
    expect(state.ruleClosedCards.map((c) => c.until)).toEqual([null, null]);
    expect((await getRoomView(db, room.roomId, room.owner.id)).partner.friendId).toBe(room.partnerFriendId);
    // Still 取引中 (a rule change never moves an offer), and no trade counted.
    expect(await offerStatus(room.offerId)).toBe("negotiating");
    expect(await completedTrades(room.owner.id)).toBe(0);

    // Reopened: the steps go on to 成立 and both counts go up once.
    await addTradeRuleChange(db, rule("charizard", true, jst(0)), admin.id);
    await applyTradeStep(db, { roomId: room.roomId, userId: room.partner.id, step: "game_trade_requested" });
    await applyTradeStep(db, { roomId: room.roomId, userId: room.owner.id, step: "complete" });
    const done = await applyTradeStep(db, { roomId: room.roomId, userId: room.partner.id, step: "complete" });
    expect(done).toMatchObject({ progress: { completed: true }, offerStatus: "completed" });
    expect([await completedTrades(room.owner.id), await completedTrades(room.partner.id)]).toEqual([1, 1]);
  });

  it("either side can still キャンセル while the card is closed, and the offer goes back on the board", async () => {
    const room = await roomFor(dialga);
    const admin = await createUser(db);
    await applyTradeStep(db, { roomId: room.roomId, userId: room.owner.id, step: "agree" });
    await applyTradeStep(db, { roomId: room.roomId, userId: room.partner.id, step: "agree" });
    await addTradeRuleChange(db, rule("dialga", false, jst(-1)), admin.id);
    const cancelled = await applyTradeStep(db, { roomId: room.roomId, userId: room.partner.id, step: "cancel" });
    expect(cancelled).toMatchObject({ progress: { cancelled: true }, offerStatus: "open" });
    const [last] = (await listMessages(db, room.roomId, room.owner.id)).slice(-1);
    expect(last).toMatchObject({ kind: "system", body: "cancel", senderId: room.partner.id });
  });
});
