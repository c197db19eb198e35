import { useCallback, useEffect, useRef, useState } from "react";
import type { Socket } from "socket.io-client";
import { acquireChatSocket } from "./chat-socket";
import {
  addToOutbox,
  browserStorage,
  countAttempt,
  dropUnownedOutbox,
  mergeOutboxes,
  outboxKey,
  readOutbox,
  removeFromOutbox,
  refusalOutcome,
  type PendingMessage,
} from "./send-queue";
import {
  type Ack,
  type ChatMessage,
  type ClientToServerEvents,
  type RoomState,
  type ServerToClientEvents,
} from "./protocol";

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type { PendingMessage };
export type Connection = "connecting" | "online" | "offline";
export type Notice = { code: string; message: string } | null;

// No ack within this time: the send is tried again (same clientId, so never stored twice).
const ACK_TIMEOUT_MS = 6_000;
const RETRY_DELAY_MS = 1_500;
const RATE_LIMIT_RETRY_MS = 5_000;

function newClientId(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Sorted by sequence, one entry per id: what makes the screen exactly-once and in order. */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  let changed = false;
  for (const m of incoming) {
    if (!byId.has(m.id)) {
      byId.set(m.id, m);
      changed = true;
    }
  }
  if (!changed) return current;
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * One chat room in the browser (docs/architecture.md "Trade chat"): joins over Socket.IO, syncs everything after the
 * last sequence it holds on every (re)connect and whenever a gap shows, sends one message at a
 * time and retries it until acknowledged (the outbox survives a reload in localStorage, is shared
 * by the user's tabs and belongs to the signed-in user: ./outbox.ts).
 */
export function useChatRoom(options: {
  roomId: string;
  userId: string;
  initialMessages: ChatMessage[];
  initialState: RoomState;
  lastSeq: number;
  onError?: (code: string) => void;
}) {
  const { roomId, userId } = options;
  const [messages, setMessages] = useState<ChatMessage[]>(options.initialMessages);
  const [state, setState] = useState<RoomState>(options.initialState);
  const [outbox, setOutbox] = useState<PendingMessage[]>([]);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [notice, setNotice] = useState<Notice>(null);
  const [hasOlder, setHasOlder] = useState(() => (options.initialMessages[0]?.seq ?? 1) > 1);
  const [loadingOlder, setLoadingOlder] = useState(false);

  const socketRef = useRef<ChatSocket | null>(null);
  const outboxRef = useRef<PendingMessage[]>([]);
  const sendingRef = useRef(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Everything up to syncedSeq is known to be on screen (or in older, not yet loaded history).
  const syncedSeq = useRef(options.lastSeq);
  const heldSeqs = useRef(new Set(options.initialMessages.map((m) => m.seq)));
  const syncing = useRef(false);
  const syncAgain = useRef(false);
  const readSent = useRef(0);

  const accept = useCallback((incoming: ChatMessage[]) => {
    const mine = incoming.filter((m) => m.roomId === roomId);
    if (mine.length === 0) return false;
    for (const m of mine) heldSeqs.current.add(m.seq);
    while (heldSeqs.current.has(syncedSeq.current + 1)) syncedSeq.current++;
    setMessages((current) => mergeMessages(current, mine));
    // A sequence number above the next expected one means something was missed: sync.
    return mine.some((m) => m.seq > syncedSeq.current);
  }, [roomId]);

  // localStorage is the outbox shared by this user's tabs; without it, this tab's memory is.
  const changeOutbox = useCallback(
    (change: { add?: PendingMessage; remove?: string; attempt?: string } = {}) => {
      const storage = browserStorage();
      const key = outboxKey(userId, roomId);
      let next: PendingMessage[];
      if (storage) {
        if (change.add) addToOutbox(storage, key, change.add);
        if (change.remove) removeFromOutbox(storage, key, change.remove);
        if (change.attempt) countAttempt(storage, key, change.attempt);
        next = readOutbox(storage, key);
        // Storage that refused the write (full): keep this tab's own unsent message in memory.
        if (change.add && !next.some((p) => p.clientId === change.add!.clientId)) next = mergeOutboxes(next, [change.add]);
      } else {
        next = change.add ? mergeOutboxes(outboxRef.current, [change.add]) : outboxRef.current;
        if (change.remove) next = next.filter((p) => p.clientId !== change.remove);
        if (change.attempt) next = next.map((p) => (p.clientId === change.attempt ? { ...p, attempts: p.attempts + 1 } : p));
      }
      outboxRef.current = next;
      setOutbox(next);
    },
    [roomId, userId],
  );

  const sync = useCallback(async () => {
    const socket = socketRef.current;
    if (!socket?.connected) return;
    if (syncing.current) {
      syncAgain.current = true;
      return;
    }
    syncing.current = true;
    try {
      do {
        syncAgain.current = false;
        for (;;) {
          const reply: Ack<{ messages: ChatMessage[]; hasMore: boolean }> = await socket
            .timeout(ACK_TIMEOUT_MS)
            .emitWithAck("chat:sync", { roomId, afterSeq: syncedSeq.current });
          if (!reply.ok) break;
          for (const m of reply.messages) {
            heldSeqs.current.add(m.seq);
            if (m.seq > syncedSeq.current) syncedSeq.current = m.seq;
          }
          setMessages((current) => mergeMessages(current, reply.messages));
          if (!reply.hasMore) break;
        }
      } while (syncAgain.current);
    } catch {
      // Timed out or disconnected: the next connect syncs again.
    } finally {
      syncing.current = false;
    }
  }, [roomId]);

  const pump = useCallback(() => {
    const socket = socketRef.current;
    const head = outboxRef.current[0];
    if (!socket?.connected || !head || sendingRef.current) return;
    sendingRef.current = true;
    const again = (delay: number) => {
      sendingRef.current = false;
      if (retryTimer.current) clearTimeout(retryTimer.current);
      retryTimer.current = setTimeout(pump, delay);
    };
    socket.timeout(ACK_TIMEOUT_MS).emit("chat:send", { roomId, clientId: head.clientId, body: head.body }, (err, reply) => {
      if (err || !reply) {
        changeOutbox({ attempt: head.clientId });
        again(RETRY_DELAY_MS);
        return;
      }
      if (!reply.ok) {
        if (refusalOutcome(reply.code) === "retry-later") {
          // A limit, or a failure of ours (nothing was stored): kept, and sent again in a while.
          setNotice({ code: reply.code, message: reply.message });
          if (reply.code !== "rate_limited") changeOutbox({ attempt: head.clientId });
          again(RATE_LIMIT_RETRY_MS);
          return;
        }
        // Refused for good (blocked, not found, invalid): drop it and say why.
        setNotice({ code: reply.code, message: reply.message });
        changeOutbox({ remove: head.clientId });
        sendingRef.current = false;
        pump();
        return;
      }
      setNotice((n) => (n && refusalOutcome(n.code) === "retry-later" ? null : n));
      if (accept([reply.message])) void sync();
      changeOutbox({ remove: head.clientId });
      sendingRef.current = false;
      pump();
    });
  }, [accept, changeOutbox, roomId, sync]);

  useEffect(() => {
    // Messages typed before a reload (or in another tab) that were never acknowledged go out again.
    const storage = browserStorage();
    if (storage) dropUnownedOutbox(storage, roomId);
    changeOutbox();
    // Another tab of this user queued or delivered something: take its view of the outbox.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== outboxKey(userId, roomId)) return;
      changeOutbox();
      pump();
    };
    window.addEventListener("storage", onStorage);
    // One connection per page, shared with the header badge.
    const { socket, release } = acquireChatSocket();
    socketRef.current = socket;

    const onConnect = async () => {
      setConnection("online");
      // A hidden tab does not count as having the room open: it joins when shown again.
      if (document.visibilityState === "hidden") return;
      try {
        const joined = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck("chat:join", { roomId });
        if (!joined.ok) {
          setNotice({ code: joined.code, message: joined.message });
          return;
        }
        await sync();
        changeOutbox();
        pump();
      } catch {
        // The join timed out: Socket.IO reconnects and this runs again.
      }
    };
    socket.on("connect", onConnect);
    if (socket.connected) void onConnect();
    const onDisconnect = (reason: string) => {
      setConnection("offline");
      sendingRef.current = false;
      // The server ended it on purpose (e.g. session gone): try again to learn why.
      if (reason === "io server disconnect") socket.connect();
    };
    const onConnectError = (err: Error) => {
      setConnection("offline");
      if (err.message === "unauthorized" || err.message === "suspended") setNotice({ code: err.message, message: "" });
    };
    const onMessage = (message: ChatMessage) => {
      if (accept([message])) void sync();
    };
    const onRoom = (next: RoomState) => {
      if (next.roomId === roomId) setState(next);
    };
    socket.on("disconnect", onDisconnect);
    socket.on("connect_error", onConnectError);
    socket.on("chat:message", onMessage);
    socket.on("chat:room", onRoom);
    // The browser says the network is gone: do not wait for a ping timeout to notice.
    const offline = () => setConnection("offline");
    const online = () => {
      if (!socket.connected) socket.connect();
    };
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    // Pushes for the room stop only while it is on screen (server: presence isViewingRoom).
    const leave = () => {
      if (socket.connected) socket.emit("chat:leave", { roomId });
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") leave();
      else if (socket.connected) void onConnect();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      leave();
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      if (retryTimer.current) clearTimeout(retryTimer.current);
      socket.off("connect", onConnect);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onConnectError);
      socket.off("chat:message", onMessage);
      socket.off("chat:room", onRoom);
      socketRef.current = null;
      release();
    };
  }, [accept, changeOutbox, pump, roomId, sync, userId]);

  // Tell the server what has been seen (only while the page is visible), so unread counts drop.
  const latestSeq = messages.at(-1)?.seq ?? 0;
  useEffect(() => {
    const markRead = () => {
      const socket = socketRef.current;
      if (!socket?.connected || document.visibilityState !== "visible" || latestSeq <= readSent.current) return;
      readSent.current = latestSeq;
      socket.emit("chat:read", { roomId, seq: latestSeq });
    };
    markRead();
    document.addEventListener("visibilitychange", markRead);
    const socket = socketRef.current;
    socket?.on("connect", markRead);
    return () => {
      document.removeEventListener("visibilitychange", markRead);
      socket?.off("connect", markRead);
    };
  }, [latestSeq, roomId, connection]);

  const send = useCallback(
    (body: string) => {
      changeOutbox({ add: { clientId: newClientId(), body, attempts: 0, queuedAt: Date.now() } });
      pump();
    },
    [changeOutbox, pump],
  );

  const call = useCallback(
    async <T extends object>(event: "chat:step" | "chat:choose-card" | "chat:block" | "chat:report", payload: object): Promise<Ack<T> | null> => {
      const socket = socketRef.current;
      if (!socket?.connected) return null;
      try {
        const timed = socket.timeout(ACK_TIMEOUT_MS) as unknown as { emitWithAck(e: string, p: object): Promise<Ack<T>> };
        const reply = await timed.emitWithAck(event, payload);
        if (!reply.ok) setNotice({ code: reply.code, message: reply.message });
        return reply;
      } catch {
        return null;
      }
    },
    [],
  );

  const step = useCallback(
    async (name: string) => {
      const reply = await call<{ state: RoomState }>("chat:step", { roomId, step: name });
      if (reply?.ok) setState(reply.state);
      return reply?.ok ?? false;
    },
    [call, roomId],
  );

  /** The partner names the card of the offer's 何でも可 side. */
  const chooseCard = useCallback(
    async (cardId: string) => {
      const reply = await call<{ state: RoomState }>("chat:choose-card", { roomId, cardId });
      if (reply?.ok) setState(reply.state);
      return reply?.ok ?? false;
    },
    [call, roomId],
  );

  const setBlocked = useCallback(
    async (blocked: boolean) => {
      const reply = await call<{ state: RoomState }>("chat:block", { roomId, blocked });
      if (reply?.ok) setState(reply.state);
    },
    [call, roomId],
  );

  const report = useCallback(
    async (messageId: string, reason: string) => {
      const reply = await call("chat:report", { messageId, reason });
      return reply?.ok ?? false;
    },
    [call],
  );

  const loadOlder = useCallback(async () => {
    const first = messages[0]?.seq;
    if (!first || first <= 1 || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const res = await fetch(`/api/chat/rooms/${roomId}/messages?beforeSeq=${first}`, { headers: { accept: "application/json" } });
      if (res.ok) {
        const data = (await res.json()) as { messages: ChatMessage[] };
        for (const m of data.messages) heldSeqs.current.add(m.seq);
        setMessages((current) => mergeMessages(current, data.messages));
        setHasOlder((data.messages[0]?.seq ?? 1) > 1);
      }
    } finally {
      setLoadingOlder(false);
    }
  }, [loadingOlder, messages, roomId]);

  return { messages, state, outbox, connection, notice, setNotice, send, step, chooseCard, setBlocked, report, loadOlder, hasOlder, loadingOlder };
}
