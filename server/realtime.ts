import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { onSessionsEnded } from "#app/lib/session-end.server.ts";
import type { Namespace, Server as SocketServer, Socket } from "socket.io";
import { z } from "#app/lib/zod.ts";
import { parseInput } from "#app/lib/validation.ts";
import { chatMessages } from "#app/features/chat/messages.ts";
import type { Database } from "#app/db/client.server.ts";
import {
  applyTradeStep,
  chooseAnyCard,
  blockRoomPartner,
  ChatError,
  countUnread,
  listMessages,
  markRead,
  requireRoomMember,
  sendMessage,
  unblockRoomPartner,
} from "#app/features/chat/chat.server.ts";
import { getRoomState } from "#app/features/chat/room-views.server.ts";
import { chatRefusalOf } from "#app/features/chat/refusal.server.ts";
import { reportMessage } from "#app/features/moderation/moderation.server.ts";
import { ChooseCardSchema, MESSAGE_RATE_LIMIT, ReportSchema, RoomIdSchema, SendMessageSchema, SeqSchema, SyncSchema, TradeStepSchema } from "#app/features/chat/chat.schema.ts";
import {
  CHAT_NAMESPACE,
  type AckError,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "#app/features/chat/protocol.ts";
import { memoryLimit, redisLimit, type RateLimiter } from "#app/lib/rate-limit.server.ts";
import { getViewerFromHeaders } from "#app/features/users/session.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { AppError } from "#app/lib/errors.ts";
import { localeFromRequest, type Locale } from "#app/lib/i18n.tsx";
import { socketRefusal } from "#app/lib/api.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { relayChanges } from "./change-relay";
import { setPresence } from "#app/features/push/presence.server.ts";
import { setOpenTabs } from "#app/features/notifications/open-tabs.server.ts";
import { countUnreadNotifications } from "#app/features/notifications/notifications.server.ts";

export type Realtime = { close(): Promise<void> };

type SocketData = { userId: string; sessionId: string; locale: Locale };
type ChatSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ChatNamespace = Namespace<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

// Sync answers at most this many messages per call; the client asks again while hasMore.
const SYNC_PAGE = 200;

/**
 * Socket.IO on the same HTTP server. With REDIS_URL the Redis adapter fans events out across
 * instances (and holds the chat rate limit); without it everything stays in-process.
 * The default namespace only answers `ping:server`; chat is the `/chat` namespace, whose
 * handshake requires the same session cookie as HTTP (the Origin is checked in server/http.ts).
 */
// Socket payloads go through the one input check (app/lib/validation.ts); a payload that breaks its
// schema is refused with the ack code `invalid`, in the socket's language.
const SOCKET_INPUT = { messages: chatMessages, fallback: "errorUnknown", code: "invalid" } as const;
const readPayload = <S extends z.ZodType>(value: unknown, schema: S): z.output<S> => parseInput(value, schema, SOCKET_INPUT);

export async function attachRealtime(options: {
  io: SocketServer;
  env: Env;
  database: Database;
  log: Logger;
}): Promise<Realtime> {
  const { io, env, database, log } = options;
  const closers: (() => Promise<unknown>)[] = [];
  let limiter: RateLimiter = memoryLimit(MESSAGE_RATE_LIMIT);
  if (env.redisUrl) {
    const pub = createClient({ url: env.redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err: Error) => log.error("redis error", { error: err.message }));
    sub.on("error", (err: Error) => log.error("redis error", { error: err.message }));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    limiter = redisLimit(MESSAGE_RATE_LIMIT, pub);
    closers.push(async () => {
      // Other instances' requests (presence asks fetchSockets of every instance) that arrived
      // before the unsubscribe are answered on pub: a publish after its quit is an unhandled
      // rejection that ends the process mid-shutdown, so pub closes after them.
      await Promise.allSettled([sub.unsubscribe(), sub.pUnsubscribe()]);
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([pub.quit(), sub.quit()]);
    });
    log.info("realtime fan-out through redis");
  }
  if (env.redisUrl) {
    // A write here makes the other instances' caches stale: the change bus tells them.
    const stop = relayChanges(io);
    closers.unshift(async () => stop());
  }
  io.on("connection", (socket) => {
    socket.on("ping:server", (ack?: (reply: { ok: true; at: number }) => void) => {
      if (typeof ack === "function") ack({ ok: true, at: Date.now() });
    });
  });
  const chat = attachChat(io.of(CHAT_NAMESPACE) as ChatNamespace, { env, database, log, limiter });
  return {
    close: async () => {
      // Unread pushes still in flight finish before Redis goes away (a publish on a closed
      // client would be an unhandled rejection inside the adapter).
      await chat.drain();
      await Promise.allSettled(closers.map((c) => c()));
    },
  };
}

function attachChat(nsp: ChatNamespace, deps: { env: Env; database: Database; log: Logger; limiter: RateLimiter }): { drain(): Promise<void> } {
  const { env, log, limiter } = deps;
  const db = deps.database.db;

  nsp.use(async (socket, next) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(socket.request.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) headers.set(name, value.join(", "));
      }
      const viewer = await getViewerFromHeaders(headers, db, env);
      // A signed-out or suspended socket never connects: connect_error "unauthorized" / "suspended".
      if (!viewer) return next(new Error("unauthorized"));
      if (viewer.suspended) return next(new Error("suspended"));
      socket.data.userId = viewer.id;
      socket.data.sessionId = viewer.sessionId;
      socket.data.locale = localeFromRequest({ headers } as Request);
      next();
    } catch (err) {
      log.error("chat handshake failed", { error: err instanceof Error ? err.message : String(err) });
      next(new Error("unavailable"));
    }
  });

  const failure = (socket: ChatSocket, err: unknown): AckError => {
    if (!(err instanceof AppError) && !(err instanceof z.ZodError)) log.error("chat handler failed", { error: err instanceof Error ? err.message : String(err) });
    const known = chatRefusalOf(err);
    if (known.code === "suspended") disconnectUser(socket.data.userId);
    return socketRefusal(known, socket.data.locale);
  };

  // The handshake refuses a suspended user, but sockets opened before the suspension stay up:
  // the first refused call closes every one of that user's sockets (on every instance). Deferred
  // so the refusal's ack goes out first.
  const disconnectUser = (userId: string) => {
    setImmediate(() => {
      if (!closing) nsp.in(`user:${userId}`).disconnectSockets(true);
    });
  };

  let closing = false;
  // Notification deliveries ask who is here (features/push/presence.server.ts): any socket of the
  // user is a live connection; a socket joined to a room is that room open and visible (the room
  // page joins on the shared socket and sends chat:leave when it closes or is hidden). fetchSockets
  // asks every instance through the adapter.
  setPresence({
    isOnline: async (userId) => !closing && (await nsp.in(`user:${userId}`).fetchSockets()).length > 0,
    isViewingRoom: async (userId, roomId) => !closing && (await nsp.in(`room:${roomId}`).fetchSockets()).some((s) => s.data.userId === userId),
  }, log);
  // Every notification reaches the player's open tabs (the bell, the title) over this socket,
  // through the adapter on whichever instance holds them. A count the caller read already (a chat
  // message's dispatch reads it with the notification) goes to every tab as it is. Otherwise it is
  // read only when this instance holds one of their tabs: a post's alerts reach hundreds of
  // players, most with no tab open, and a tab on another instance gets `notice:changed` and reads
  // the count itself (a tab of an older build ignores that event rather than showing a count it
  // was not given).
  setOpenTabs({
    noticeChanged: async (userId, known) => {
      if (closing) return;
      const room = `user:${userId}`;
      if (known !== undefined) {
        to(room)?.emit("notice:unread", { unread: known });
        return;
      }
      if (!nsp.adapter.rooms.has(room)) {
        to(room)?.emit("notice:changed");
        return;
      }
      const unread = await countUnreadNotifications(db, userId);
      to(room)?.emit("notice:unread", { unread });
    },
  }, log);
  // The handshake is the only session check a socket gets: when a session ends (sign-out, the
  // device list, a password change or reset, deletion), its sockets close on every instance.
  const stopSessionWatch = onSessionsEnded((sessionIds) => {
    if (!closing) nsp.in(sessionIds.map((id) => `session:${id}`)).disconnectSockets(true);
  });
  const inFlight = new Set<Promise<unknown>>();
  // Handlers still running at shutdown finish before Redis closes; their broadcasts are dropped
  // once closing (the messages are stored, and clients sync when they reconnect).
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  };
  const to = (room: string) => (closing ? null : nsp.to(room));
  const pushUnread = (userId: string, roomId?: string) => {
    if (closing) return;
    const push = countUnread(db, userId)
      .then((total) => {
        to(`user:${userId}`)?.emit("chat:unread", { total, roomId });
      })
      .catch((err: unknown) => log.warn("unread push failed", { error: err instanceof Error ? err.message : String(err) }));
    void track(push);
  };

  nsp.on("connection", (raw) => {
    const socket = raw as ChatSocket;
    const userId = socket.data.userId;
    void socket.join([`user:${userId}`, `session:${socket.data.sessionId}`]);

    /** Runs a handler whose ack is required; a missing ack is a malformed call and is ignored. */
    const handle = <P, R extends object>(event: keyof ClientToServerEvents, run: (payload: P) => Promise<R>) => {
      socket.on(event, (async (payload: P, ack: unknown) => {
        if (typeof ack !== "function") return;
        try {
          ack({ ok: true, ...(await track(run(payload))) });
        } catch (err) {
          ack(failure(socket, err));
        }
      }) as never);
    };

    handle<{ roomId: string }, { lastSeq: number }>("chat:join", async (payload) => {
      const roomId = readPayload(payload?.roomId, RoomIdSchema);
      // Membership first: a room that is not yours is answered like one that does not exist.
      const room = await requireRoomMember(db, roomId, userId);
      await socket.join(`room:${room.id}`);
      return { lastSeq: room.lastSeq };
    });

    // The room page closed or went to the background (the shared socket stays up for the header
    // badge): the room no longer counts as open, so its pushes go out again.
    socket.on("chat:leave", async (payload, ack) => {
      const parsed = RoomIdSchema.safeParse(payload?.roomId);
      if (parsed.success) await socket.leave(`room:${parsed.data}`);
      if (typeof ack === "function") ack(parsed.success ? { ok: true } : failure(socket, new ChatError("invalid")));
    });

    handle<unknown, object>("chat:send", async (payload) => {
      const input = readPayload(payload, SendMessageSchema);
      const result = await sendMessage(db, { ...input, userId }, () => limiter.take(userId));
      // Stored first, then announced. A retry is announced again: receivers drop duplicates by
      // id, and a second chance helps when the first broadcast was lost with an instance.
      to(`room:${input.roomId}`)?.emit("chat:message", result.message);
      if (result.created) pushUnread(result.recipientId, input.roomId);
      return { message: result.message };
    });

    handle<unknown, object>("chat:sync", async (payload) => {
      const input = readPayload(payload, SyncSchema);
      const messages = await listMessages(db, input.roomId, userId, { afterSeq: input.afterSeq, limit: SYNC_PAGE });
      return { messages, hasMore: messages.length === SYNC_PAGE };
    });

    socket.on("chat:read", async (payload, ack) => {
      try {
        const roomId = readPayload(payload?.roomId, RoomIdSchema);
        const seq = readPayload(payload?.seq, SeqSchema);
        const total = await track(markRead(db, roomId, userId, seq).then(() => countUnread(db, userId)));
        // Every tab of this user (header badges) learns the new total.
        to(`user:${userId}`)?.emit("chat:unread", { total, roomId });
        if (typeof ack === "function") ack({ ok: true, total });
      } catch (err) {
        if (typeof ack === "function") ack(failure(socket, err));
      }
    });

    handle<unknown, object>("chat:step", async (payload) => {
      const input = readPayload(payload, TradeStepSchema);
      const result = await applyTradeStep(db, { roomId: input.roomId, userId, step: input.step });
      for (const message of result.messages) to(`room:${input.roomId}`)?.emit("chat:message", message);
      const state = await getRoomState(db, input.roomId, userId);
      to(`room:${input.roomId}`)?.emit("chat:room", state);
      if (result.messages.length > 0) pushUnread(result.recipientId, input.roomId);
      return { state };
    });

    handle<unknown, object>("chat:choose-card", async (payload) => {
      const input = readPayload(payload, ChooseCardSchema);
      const result = await chooseAnyCard(db, { roomId: input.roomId, userId, cardId: input.cardId });
      to(`room:${input.roomId}`)?.emit("chat:message", result.message);
      const state = await getRoomState(db, input.roomId, userId);
      to(`room:${input.roomId}`)?.emit("chat:room", state);
      pushUnread(result.recipientId, input.roomId);
      return { state };
    });

    handle<{ roomId: string; blocked: boolean }, object>("chat:block", async (payload) => {
      const roomId = readPayload(payload?.roomId, RoomIdSchema);
      const blocked = readPayload(payload?.blocked, z.boolean());
      if (blocked) {
        // Blocking someone the offer is 取引中 with cancels that trade: announce the キャンセル.
        const result = await blockRoomPartner(db, roomId, userId);
        for (const message of result.messages) to(`room:${roomId}`)?.emit("chat:message", message);
        if (result.messages.length > 0) pushUnread(result.blockedId, roomId);
      } else {
        await unblockRoomPartner(db, roomId, userId);
      }
      const state = await getRoomState(db, roomId, userId);
      to(`room:${roomId}`)?.emit("chat:room", state);
      return { state };
    });

    handle<unknown, object>("chat:report", async (payload) => {
      const input = ReportSchema.safeParse(payload);
      if (!input.success) {
        const badId = input.error.issues.some((issue) => issue.path[0] === "messageId");
        throw new ChatError(badId ? "not_found" : "empty");
      }
      await reportMessage(db, { reporterId: userId, ...input.data });
      return {};
    });

    socket.on("chat:unread", async (ack) => {
      if (typeof ack !== "function") return;
      try {
        ack({ ok: true, total: await countUnread(db, userId) });
      } catch (err) {
        ack(failure(socket, err));
      }
    });
  });

  return {
    drain: async () => {
      closing = true;
      setPresence(null);
      setOpenTabs(null);
      stopSessionWatch();
      await Promise.allSettled([...inFlight]);
    },
  };
}
