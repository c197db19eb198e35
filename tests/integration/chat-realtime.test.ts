import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { Server as SocketServer } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, profiles, sessions, tradeOffers, users } from "#app/db/schema/index.ts";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { getRoomView } from "#app/features/chat/room-views.server.ts";
import { presence } from "#app/features/push/presence.server.ts";
import { openTabs } from "#app/features/notifications/open-tabs.server.ts";
import { deleteAccount, revokeOtherSessions, revokeSession } from "#app/features/users/account.server.ts";
import { getAuth } from "#app/features/users/auth.server.ts";
import type { Ack, ChatMessage, ClientToServerEvents, ServerToClientEvents } from "#app/features/chat/protocol.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { attachRealtime, type Realtime } from "#server/realtime.ts";
import { publishChange, changeVersion } from "#app/lib/change-bus.server.ts";
import { createChatRoom, createChatUser, createSessionCookie, newClientId } from "#tests/support/chat-factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;
type Instance = { url: string; http: Server; io: SocketServer; realtime: Realtime };

const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
const instances: Instance[] = [];
const clients: ChatClient[] = [];

function testEnv(extra: Record<string, string> = {}): Env {
  return loadEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-chat-")),
    BETTER_AUTH_SECRET: SECRET,
    SITE_URL: "http://127.0.0.1",
    LOG_LEVEL: "silent",
    ...extra,
  });
}

async function startInstance(env: Env, log = createLogger("silent")): Promise<Instance> {
  const http = createServer();
  const io = new SocketServer(http, { serveClient: false });
  const realtime = await attachRealtime({ io, env, database, log });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const instance = { url: `http://127.0.0.1:${port}`, http, io, realtime };
  instances.push(instance);
  return instance;
}

function client(instance: Instance, cookie?: string): ChatClient {
  const socket: ChatClient = connect(`${instance.url}/chat`, {
    transports: ["websocket"],
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  clients.push(socket);
  return socket;
}

function connected(socket: ChatClient): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
}

function call<T extends object>(socket: ChatClient, event: string, payload: unknown): Promise<Ack<T>> {
  return new Promise((resolve) => (socket.emit as (e: string, p: unknown, cb: (r: Ack<T>) => void) => void)(event, payload, resolve));
}

/** Collects chat:message events; `until(n)` resolves once n distinct messages arrived. */
function inbox(socket: ChatClient) {
  const received: ChatMessage[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  socket.on("chat:message", (m) => {
    received.push(m);
    const distinct = new Set(received.map((r) => r.id)).size;
    for (const w of waiters.filter((w) => distinct >= w.n)) w.resolve();
  });
  return {
    received,
    until: (n: number) =>
      new Promise<void>((resolve) => {
        if (new Set(received.map((r) => r.id)).size >= n) return resolve();
        waiters.push({ n, resolve });
      }),
  };
}

async function signedIn(instance: Instance, userId: string) {
  const socket = client(instance, await createSessionCookie(database.db, userId, SECRET));
  await connected(socket);
  return socket;
}

/** The next notice a socket receives: `notice:unread` with its count, or `notice:changed` (no count). */
function nextNotice(socket: ChatClient): Promise<{ unread?: number }> {
  return new Promise((resolve) => {
    const unread = (update: { unread: number }) => {
      socket.off("notice:changed", changed);
      resolve(update);
    };
    const changed = () => {
      socket.off("notice:unread", unread);
      resolve({});
    };
    socket.once("notice:unread", unread);
    socket.once("notice:changed", changed);
  });
}

/** One unread notification for the user (an expiry reminder needs nothing else). */
async function unreadNotification(userId: string): Promise<void> {
  await database.db.execute(sql`insert into notifications (user_id, kind) values (${userId}, 'expiring')`);
}

let server: Instance;
beforeAll(async () => {
  database = await createTestDatabase();
  server = await startInstance(testEnv());
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const i of instances) {
    await new Promise<void>((resolve) => i.io.close(() => resolve()));
    await i.realtime.close();
  }
  await database?.close();
});

describe("the chat socket", () => {
  it("a notification tells the player's open tab the new unread count", async () => {
    const owner = await createChatUser(database.db);
    const tab = await signedIn(server, owner.id);
    await unreadNotification(owner.id);
    const notice = nextNotice(tab);
    await openTabs().noticeChanged(owner.id);
    expect(await notice).toEqual({ unread: 1 });
  });

  it("refuses a signed-out or forged-cookie handshake", async () => {
    for (const cookie of [undefined, "torepoke.session_token=forged.c2lnbmF0dXJl"]) {
      const socket = client(server, cookie);
      const error = await connected(socket).then(
        () => new Error("connected"),
        (err: Error) => err,
      );
      expect(error.message).toBe("unauthorized");
    }
  });

  it("refuses to join, read or write a room for anyone but its two participants", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const stranger = await createChatUser(database.db);
    const outsider = await signedIn(server, stranger.id);
    const outsiderInbox = inbox(outsider);
    const join = await call(outsider, "chat:join", { roomId });
    expect(join).toMatchObject({ ok: false, code: "not_found", message: "チャットルームが見つかりません" });
    expect(await call(outsider, "chat:send", { roomId, clientId: newClientId(), body: "やあ" })).toMatchObject({ ok: false, code: "not_found" });
    expect(await call(outsider, "chat:sync", { roomId, afterSeq: 0 })).toMatchObject({ ok: false, code: "not_found" });
    expect(await call(outsider, "chat:step", { roomId, step: "cancel" })).toMatchObject({ ok: false, code: "not_found" });
    expect(await call(outsider, "chat:join", { roomId: "../../etc" })).toMatchObject({ ok: false });

    const a = await signedIn(server, owner.id);
    const b = await signedIn(server, partner.id);
    expect(await call(a, "chat:join", { roomId })).toMatchObject({ ok: true, lastSeq: 0 });
    expect(await call(b, "chat:join", { roomId })).toMatchObject({ ok: true });
    const bInbox = inbox(b);
    await call(a, "chat:send", { roomId, clientId: newClientId(), body: "二人だけの話" });
    await bInbox.until(1);
    expect(outsiderInbox.received).toEqual([]);
    expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(1);
  });

  it("delivers in real time, answers a retried send with the stored message, and pushes unread counts", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const a = await signedIn(server, owner.id);
    const b = await signedIn(server, partner.id);
    await call(a, "chat:join", { roomId });
    await call(b, "chat:join", { roomId });
    const bInbox = inbox(b);
    const unread: number[] = [];
    b.on("chat:unread", (u) => unread.push(u.total));
    const clientId = newClientId();
    const first = await call<{ message: ChatMessage }>(a, "chat:send", { roomId, clientId, body: "こんにちは https://example.com" });
    const retry = await call<{ message: ChatMessage }>(a, "chat:send", { roomId, clientId, body: "こんにちは https://example.com" });
    expect(first.ok && retry.ok).toBe(true);
    if (!first.ok || !retry.ok) return;
    expect(retry.message.id).toBe(first.message.id);
    await bInbox.until(1);
    expect(bInbox.received[0]).toMatchObject({ body: "こんにちは https://example.com", seq: 1, senderId: owner.id });
    // At-least-once on the wire (the retry may be announced again), one row in the database.
    expect(new Set(bInbox.received.map((m) => m.id)).size).toBe(1);
    expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(1);
    await expect.poll(() => unread.at(-1)).toBe(1);
    const read = await call<{ total: number }>(b, "chat:read", { roomId, seq: 1 });
    expect(read).toMatchObject({ ok: true, total: 0 });
  });

  it("a room counts as open only between chat:join and chat:leave on the shared socket", async () => {
    const { roomId, owner } = await createChatRoom(database.db);
    const tab = await signedIn(server, owner.id);
    expect(await presence().isViewingRoom(owner.id, roomId)).toBe(false);
    await call(tab, "chat:join", { roomId });
    expect(await presence().isViewingRoom(owner.id, roomId)).toBe(true);
    // The page is left (or hidden) while the socket stays up for the header badge.
    expect(await call(tab, "chat:leave", { roomId })).toMatchObject({ ok: true });
    expect(tab.connected).toBe(true);
    expect(await presence().isViewingRoom(owner.id, roomId)).toBe(false);
    expect(await presence().isOnline(owner.id)).toBe(true);
    expect(await call(tab, "chat:leave", { roomId: "../../etc" })).toMatchObject({ ok: false });
  });

  it("after a gap, sync returns exactly the missed messages in order", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const a = await signedIn(server, owner.id);
    await call(a, "chat:join", { roomId });
    const first = await signedIn(server, partner.id);
    await call(first, "chat:join", { roomId });
    await call(a, "chat:send", { roomId, clientId: "before", body: "オンライン中" });
    first.close(); // B goes away
    for (let i = 1; i <= 5; i++) await call(a, "chat:send", { roomId, clientId: `gap-${i}`, body: `オフライン中 ${i}` });
    const again = await signedIn(server, partner.id);
    await call(again, "chat:join", { roomId });
    const sync = await call<{ messages: ChatMessage[]; hasMore: boolean }>(again, "chat:sync", { roomId, afterSeq: 1 });
    expect(sync.ok).toBe(true);
    if (!sync.ok) return;
    expect(sync.messages.map((m) => m.body)).toEqual([1, 2, 3, 4, 5].map((i) => `オフライン中 ${i}`));
    expect(sync.messages.map((m) => m.seq)).toEqual([2, 3, 4, 5, 6]);
    expect(sync.hasMore).toBe(false);
  });

  it("concurrent sends from both sides reach both sides once each, with one gap-free sequence", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const a = await signedIn(server, owner.id);
    const b = await signedIn(server, partner.id);
    await call(a, "chat:join", { roomId });
    await call(b, "chat:join", { roomId });
    const aInbox = inbox(a);
    const bInbox = inbox(b);
    // Both sides type at once; each client sends its own messages one after another (the next
    // after the previous ack), as the browser does.
    const sendAll = async (socket: ChatClient, prefix: string) => {
      const acks: Ack<{ message: ChatMessage }>[] = [];
      for (let i = 0; i < 15; i++) acks.push(await call(socket, "chat:send", { roomId, clientId: `${prefix}-${i}`, body: `${prefix}${i}` }));
      return acks;
    };
    const [aAcks, bAcks] = await Promise.all([sendAll(a, "A"), sendAll(b, "B")]);
    expect([...aAcks, ...bAcks].every((r) => r.ok)).toBe(true);
    await Promise.all([aInbox.until(30), bInbox.until(30)]);
    for (const box of [aInbox, bInbox]) {
      const seqs = [...new Set(box.received.map((m) => m.seq))].sort((x, y) => x - y);
      expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(new Set(box.received.map((m) => m.id)).size).toBe(30);
      // In sequence order, each side's messages read in the order they were typed.
      const bySeq = [...new Map(box.received.map((m) => [m.id, m])).values()].sort((x, y) => x.seq - y.seq);
      expect(bySeq.filter((m) => m.body.startsWith("A")).map((m) => m.body)).toEqual(Array.from({ length: 15 }, (_, i) => `A${i}`));
      expect(bySeq.filter((m) => m.body.startsWith("B")).map((m) => m.body)).toEqual(Array.from({ length: 15 }, (_, i) => `B${i}`));
    }
  });

  it("limits a user to 20 messages per 10 seconds with a Japanese notice", async () => {
    const { roomId, owner } = await createChatRoom(database.db);
    const a = await signedIn(server, owner.id);
    const replies = [];
    for (let i = 0; i < 21; i++) replies.push(await call(a, "chat:send", { roomId, clientId: `rl-${i}`, body: `連投 ${i}` }));
    expect(replies.slice(0, 20).every((r) => r.ok)).toBe(true);
    expect(replies[20]).toMatchObject({ ok: false, code: "rate_limited", message: "メッセージの送信が多すぎます。10秒ほど待ってから送信してください。" });
    // A retry of an already stored message is still answered.
    expect(await call(a, "chat:send", { roomId, clientId: "rl-3", body: "連投 3" })).toMatchObject({ ok: true });
    expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(20);
  });

  it("broadcasts trade steps and blocks as room state to both sides", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db, { ownerFriendId: "1111222233334444", partnerFriendId: "9999888877776666" });
    const a = await signedIn(server, owner.id);
    const b = await signedIn(server, partner.id);
    await call(a, "chat:join", { roomId });
    await call(b, "chat:join", { roomId });
    const states: unknown[] = [];
    b.on("chat:room", (s) => states.push(s));
    await call(a, "chat:step", { roomId, step: "agree" });
    const both = await call(b, "chat:step", { roomId, step: "agree" });
    expect(both).toMatchObject({ ok: true, state: { progress: { agreed: true }, offerStatus: "negotiating", friendIds: { [owner.id]: "1111222233334444" } } });
    expect(await call(a, "chat:step", { roomId, step: "bogus" })).toMatchObject({ ok: false });
    const bInbox = inbox(b);
    const block = await call(a, "chat:block", { roomId, blocked: true });
    // Blocking the partner the offer is 取引中 with puts it back on the board, with the キャンセル notice.
    expect(block).toMatchObject({ ok: true, state: { blockerIds: [owner.id], offerStatus: "open", progress: { cancelled: true, agreed: false }, friendIds: null } });
    await bInbox.until(1);
    expect(bInbox.received).toMatchObject([{ kind: "system", body: "cancel", senderId: owner.id }]);
    expect(await call(b, "chat:send", { roomId, clientId: newClientId(), body: "まだ？" })).toMatchObject({ ok: false, code: "blocked" });
    await expect.poll(() => states.length).toBe(3);
  });

  it("answers a sync cursor beyond the sequence range with a clean error", async () => {
    // Its own instance, to see that the bad cursor is refused as input, not logged as a failure.
    const logged: string[] = [];
    const watched = await startInstance(testEnv(), createLogger("warn", (line) => logged.push(line)));
    const { roomId, owner } = await createChatRoom(database.db);
    const a = await signedIn(watched, owner.id);
    for (const afterSeq of [99_999_999_999, 2_147_483_648, -1, 1.5]) {
      expect(await call(a, "chat:sync", { roomId, afterSeq })).toMatchObject({ ok: false, code: "invalid", message: "エラーが発生しました。時間をおいてもう一度お試しください。" });
    }
    expect(await call(a, "chat:sync", { roomId, afterSeq: 2_147_483_647 })).toMatchObject({ ok: true, messages: [], hasMore: false });
    expect(logged).toEqual([]);
  });

  it("a user suspended while connected is refused on the open socket, and all their sockets are closed", async () => {
    const calls = [
      { event: "chat:send", payload: (roomId: string) => ({ roomId, clientId: newClientId(), body: "停止後" }) },
      { event: "chat:step", payload: (roomId: string) => ({ roomId, step: "cancel" }) },
    ];
    for (const { event, payload } of calls) {
      const { roomId, owner, partner, offer } = await createChatRoom(database.db);
      const a = await signedIn(server, owner.id);
      const b = await signedIn(server, partner.id);
      const bOtherTab = await signedIn(server, partner.id);
      await call(a, "chat:join", { roomId });
      await call(b, "chat:join", { roomId });
      await call(a, "chat:step", { roomId, step: "agree" });
      await call(b, "chat:step", { roomId, step: "agree" });
      const aInbox = inbox(a);
      const closed = [b, bOtherTab].map((s) => new Promise<string>((resolve) => s.once("disconnect", resolve)));
      await database.db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, partner.id));

      expect(await call(b, event, payload(roomId)), event).toMatchObject({
        ok: false,
        code: "suspended",
        message: "このアカウントは利用停止中のため、チャットを利用できません",
      });
      expect(await Promise.all(closed), event).toEqual(["io server disconnect", "io server disconnect"]);
      // Coming back (the page reconnects after a server disconnect) is refused at the handshake.
      const again = await connected(client(server, await createSessionCookie(database.db, partner.id, SECRET))).then(
        () => new Error("connected"),
        (err: Error) => err,
      );
      expect(again.message).toBe("suspended");
      expect(a.connected).toBe(true);
      // Nothing was stored or announced: the three messages are the two agreements and 合意.
      expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(3);
      expect(aInbox.received).toEqual([]);
      const [stored] = await database.db.select({ status: tradeOffers.status }).from(tradeOffers).where(eq(tradeOffers.id, offer.id));
      expect(stored.status).toBe("negotiating");
    }
  });

  it("closes the sockets of a session when it ends: one device, all other devices, a password change, account deletion", async () => {
    const sessionIdOf = async (cookie: string) => {
      const token = decodeURIComponent(cookie.split("=")[1]).split(".")[0];
      const [row] = await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
      return row.id;
    };
    const open = async (cookie: string) => {
      const socket = client(server, cookie);
      await connected(socket);
      return { socket, closed: new Promise<string>((resolve) => socket.once("disconnect", resolve)) };
    };

    // The device list: one session, then every other one.
    const user = await createChatUser(database.db);
    const [kept, ended, other] = await Promise.all([0, 1, 2].map(() => createSessionCookie(database.db, user.id, SECRET)));
    const keptSocket = await open(kept);
    const endedSocket = await open(ended);
    const otherSocket = await open(other);
    await revokeSession(database.db, user.id, await sessionIdOf(ended));
    expect(await endedSocket.closed).toBe("io server disconnect");
    expect(otherSocket.socket.connected).toBe(true);
    await revokeOtherSessions(database.db, user.id, decodeURIComponent(kept.split("=")[1]).split(".")[0]);
    expect(await otherSocket.closed).toBe("io server disconnect");
    expect(keptSocket.socket.connected).toBe(true);

    // Better Auth's own endings (a password change that ends the other sessions) and deletion.
    const env = testEnv();
    const auth = getAuth(database.db, env);
    const email = `socket-${Date.now()}@example.com`;
    const password = "kouKan-2026-pass";
    const authRequest = (route: string, body: unknown, cookie?: string) =>
      new Request(`${env.siteUrl}/api/auth${route}`, { method: "POST", headers: { "content-type": "application/json", origin: env.siteUrl, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    const signUp = await auth.handler(authRequest("/sign-up/email", { email, password, name: "ソケット" }));
    const first = signUp.headers.getSetCookie()[0].split(";")[0];
    const second = (await auth.handler(authRequest("/sign-in/email", { email, password }))).headers.getSetCookie()[0].split(";")[0];
    const secondSocket = await open(second);
    const changed = await auth.handler(authRequest("/change-password", { currentPassword: password, newPassword: "atarashii-Pass-77", revokeOtherSessions: true }, first));
    expect(changed.status).toBe(200);
    expect(await secondSocket.closed).toBe("io server disconnect");

    const current = changed.headers.getSetCookie()[0].split(";")[0];
    const currentSocket = await open(current);
    const [{ id: userId }] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await deleteAccount(database.db, env, userId, { password: "atarashii-Pass-77", locale: "ja" });
    expect(await currentSocket.closed).toBe("io server disconnect");
    expect(keptSocket.socket.connected).toBe(true);
  });

  it("refuses a message from a deleted account", async () => {
    const { roomId, owner } = await createChatRoom(database.db);
    await database.db.update(profiles).set({ deletedAt: new Date() }).where(eq(profiles.userId, owner.id));
    await expect(sendMessage(database.db, { roomId, userId: owner.id, clientId: newClientId(), body: "退会後" })).rejects.toMatchObject({ code: "not_found" });
    expect(await database.db.select().from(chatMessages).where(eq(chatMessages.roomId, roomId))).toHaveLength(0);
  });

  it("a room whose partner deleted the account takes nothing: send, steps and block are refused with partner_left", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const b = await signedIn(server, partner.id);
    await call(b, "chat:join", { roomId });
    expect(await call(b, "chat:send", { roomId, clientId: newClientId(), body: "よろしくお願いします" })).toMatchObject({ ok: true });
    await database.db.update(profiles).set({ displayName: "退会したユーザー", deletedAt: new Date() }).where(eq(profiles.userId, owner.id));

    const refused = { ok: false, code: "partner_left", message: "相手が退会したため、送信や取引の手続きはできません" };
    expect(await call(b, "chat:send", { roomId, clientId: newClientId(), body: "まだいますか？" })).toEqual(refused);
    expect(await call(b, "chat:step", { roomId, step: "agree" })).toEqual(refused);
    expect(await call(b, "chat:step", { roomId, step: "cancel" })).toEqual(refused);
    expect(await call(b, "chat:block", { roomId, blocked: true })).toEqual(refused);
    // Reading stays: the history and the room's state still come.
    expect(await call(b, "chat:sync", { roomId, afterSeq: 0 })).toMatchObject({ ok: true, messages: [{ body: "よろしくお願いします" }] });
    const rows = await database.db.select({ body: chatMessages.body }).from(chatMessages).where(eq(chatMessages.roomId, roomId));
    expect(rows.map((r) => r.body)).toEqual(["よろしくお願いします"]);
    expect((await getRoomView(database.db, roomId, partner.id)).partner).toMatchObject({ displayName: "退会したユーザー", left: true });
    expect((await getRoomView(database.db, roomId, owner.id)).partner.left).toBe(false);
  });

  it("files a report for a message from the room", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const a = await signedIn(server, owner.id);
    const b = await signedIn(server, partner.id);
    const sent = await call<{ message: ChatMessage }>(b, "chat:send", { roomId, clientId: newClientId(), body: "LINE教えて" });
    if (!sent.ok) throw new Error("send failed");
    expect(await call(a, "chat:report", { messageId: sent.message.id, reason: "外部連絡先の要求" })).toMatchObject({ ok: true });
    expect(await call(a, "chat:report", { messageId: sent.message.id, reason: "" })).toMatchObject({ ok: false, code: "empty" });
    expect(await call(a, "chat:report", { messageId: "nope", reason: "x" })).toMatchObject({ ok: false, code: "not_found" });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl)("two instances sharing Redis (TEST_REDIS_URL)", () => {
  it("one participant on each instance: messages flow both ways, and the rate limit is shared", async () => {
    const env = testEnv({ REDIS_URL: redisUrl! });
    const one = await startInstance(env);
    const two = await startInstance(env);
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const a = await signedIn(one, owner.id);
    const b = await signedIn(two, partner.id);
    await call(a, "chat:join", { roomId });
    await call(b, "chat:join", { roomId });
    const aInbox = inbox(a);
    const bInbox = inbox(b);
    await call(a, "chat:send", { roomId, clientId: "x1", body: "インスタンス1から" });
    await bInbox.until(1);
    await call(b, "chat:send", { roomId, clientId: "x2", body: "インスタンス2から" });
    await aInbox.until(2);
    expect(aInbox.received.map((m) => m.body)).toContain("インスタンス2から");
    expect(bInbox.received.map((m) => m.body)).toContain("インスタンス1から");

    // 20 per 10 s in total, wherever the sockets are.
    const a2 = await signedIn(two, owner.id);
    const replies = [];
    for (let i = 0; i < 10; i++) replies.push(await call(a, "chat:send", { roomId, clientId: `r1-${i}`, body: `${i}` }));
    for (let i = 0; i < 10; i++) replies.push(await call(a2, "chat:send", { roomId, clientId: `r2-${i}`, body: `${i}` }));
    // x1 counted already: 1 + 20 attempts → the last one is over the limit.
    expect(replies.filter((r) => !r.ok).map((r) => (r.ok ? "" : r.code))).toEqual(["rate_limited"]);
  });

  it("a notification reaches a tab on the other instance as a nudge to read the count, or with a count read already, and with the count where the tab is local", async () => {
    const env = testEnv({ REDIS_URL: redisUrl! });
    const one = await startInstance(env);
    await startInstance(env); // the last attached tells the open tabs, as the instance that runs a delivery would
    const owner = await createChatUser(database.db);
    const remoteTab = await signedIn(one, owner.id);
    await unreadNotification(owner.id);
    const nudge = nextNotice(remoteTab);
    await openTabs().noticeChanged(owner.id);
    expect(await nudge).toEqual({});
    // A count the caller read with the notification (a chat message's dispatch) reaches it as it is.
    const counted = nextNotice(remoteTab);
    await openTabs().noticeChanged(owner.id, 7);
    expect(await counted).toEqual({ unread: 7 });

    const localTab = await signedIn(instances.at(-1)!, owner.id);
    const [remote, local] = [nextNotice(remoteTab), nextNotice(localTab)];
    await openTabs().noticeChanged(owner.id);
    expect(await remote).toEqual({ unread: 1 });
    expect(await local).toEqual({ unread: 1 });
  });

  it("relays trade-board writes to the other instance, whose board caches then drop", async () => {
    const env = testEnv({ REDIS_URL: redisUrl! });
    await startInstance(env);
    await startInstance(env);
    // Both instances live in this process and share one counter: a local change moves it once,
    // and each relayed copy that arrives from the other instance moves it again.
    const before = changeVersion("board");
    publishChange("board");
    const deadline = Date.now() + 5000;
    while (changeVersion("board") < before + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changeVersion("board")).toBeGreaterThanOrEqual(before + 2);
  });
});
