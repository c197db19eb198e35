import type { CardFace } from "#app/lib/card-face.ts";

/**
 * The realtime chat protocol (docs/architecture.md "Trade chat"), shared by server/realtime.ts and the browser hook.
 * Chat lives on its own Socket.IO namespace so that its handshake can require a session while
 * the default namespace keeps the platform's unauthenticated `ping:server` health check.
 */
export const CHAT_NAMESPACE = "/chat";

export type ChatMessage = {
  id: string;
  roomId: string;
  seq: number;
  senderId: string | null;
  kind: "text" | "system";
  body: string;
  clientId: string | null;
  createdAt: string;
};

export type TradeProgress = {
  ownerAgreed: boolean;
  partnerAgreed: boolean;
  agreed: boolean;
  friendRequested: boolean;
  gameTradeRequested: boolean;
  ownerCompleted: boolean;
  partnerCompleted: boolean;
  completed: boolean;
  cancelled: boolean;
};

/**
 * A card of the room's offer that the trade rules close now (the board marks such an offer):
 * `until` is when a change already on the books opens it again (ISO), or null.
 */
export type RuleClosedCard = { cardId: string; name: string; until: string | null };

/** Pushed to `room:<id>` whenever steps, the offer status or blocks change. */
export type RoomState = {
  roomId: string;
  progress: TradeProgress;
  offerStatus: string;
  /** Participants who have blocked the other one. */
  blockerIds: string[];
  /** Friend IDs, present only once both sides agreed (keyed by user id). */
  friendIds: Record<string, string | null> | null;
  /** The offer's cards the trade rules close now; while any is listed, no step but キャンセル is taken. */
  ruleClosedCards: RuleClosedCard[];
  /** The card the partner named for the offer's 何でも可 side (null until named or when no side is 何でも可). */
  chosenCard: RoomChosenCard | null;
};

/** A room's named 何でも可 card as both screens draw it (the shape of the room offer's cards). */
export type RoomChosenCard = Omit<CardFace, "id"> & { cardId: string; side: "give" | "want"; count: number };

/** A refused call: the refusal writer's socket ack (app/lib/api.server.ts socketRefusal). */
export type AckError = { ok: false; code: string; message: string };
export type Ack<T extends object = object> = ({ ok: true } & T) | AckError;

/** Events the browser sends, each with an ack callback. */
export type ClientToServerEvents = {
  "chat:join": (payload: { roomId: string }, ack: (reply: Ack<{ lastSeq: number }>) => void) => void;
  /** The room page closed or was hidden: the room stops counting as open (pushes resume). */
  "chat:leave": (payload: { roomId: string }, ack?: (reply: Ack) => void) => void;
  "chat:send": (payload: { roomId: string; clientId: string; body: string }, ack: (reply: Ack<{ message: ChatMessage }>) => void) => void;
  "chat:sync": (
    payload: { roomId: string; afterSeq: number },
    ack: (reply: Ack<{ messages: ChatMessage[]; hasMore: boolean }>) => void,
  ) => void;
  "chat:read": (payload: { roomId: string; seq: number }, ack?: (reply: Ack<{ total: number }>) => void) => void;
  "chat:step": (payload: { roomId: string; step: string }, ack: (reply: Ack<{ state: RoomState }>) => void) => void;
  /** The partner names the card of the offer's 何でも可 side. */
  "chat:choose-card": (payload: { roomId: string; cardId: string }, ack: (reply: Ack<{ state: RoomState }>) => void) => void;
  "chat:block": (payload: { roomId: string; blocked: boolean }, ack: (reply: Ack<{ state: RoomState }>) => void) => void;
  "chat:report": (payload: { messageId: string; reason: string }, ack: (reply: Ack) => void) => void;
  "chat:unread": (ack: (reply: Ack<{ total: number }>) => void) => void;
};

export type ServerToClientEvents = {
  "chat:message": (message: ChatMessage) => void;
  "chat:room": (state: RoomState) => void;
  "chat:unread": (update: { total: number; roomId?: string }) => void;
  /** A notification of any kind was written or bumped for this user: the bell's new unread count. */
  "notice:unread": (update: { unread: number }) => void;
  /** A notification changed the unread count and this instance holds none of the player's tabs: read the count. */
  "notice:changed": () => void;
};
