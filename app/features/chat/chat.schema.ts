import { z } from "#app/lib/zod.ts";
import { safeString } from "#app/lib/text.ts";
import type { LimitDefinition } from "#app/lib/rate-limit.server.ts";

/**
 * Messages per user: 20 per 10 s. With Redis it is one sliding window shared by every instance, so
 * a user cannot multiply the limit by landing sockets on several servers; without Redis there is
 * one instance and the window lives in its memory (server/realtime.ts picks the store).
 */
export const MESSAGE_RATE_LIMIT: LimitDefinition = { name: "chat-rate", max: 20, window: { ms: 10_000 } };

/** Messages are plain text, 1–1,000 characters after trimming (the limit). */
export const MESSAGE_MAX_LENGTH = 1000;
/** How many messages one page of history holds (SSR, sync and scroll-back). */
export const MESSAGE_PAGE_SIZE = 50;

export const TRADE_STEPS = ["agree", "friend_requested", "game_trade_requested", "complete", "cancel"] as const;
export type TradeStep = (typeof TRADE_STEPS)[number];

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

export const RoomIdSchema = uuid;

/** Sequence numbers are int4 columns: a larger cursor would fail in the database, not match nothing. */
export const SEQ_MAX = 2_147_483_647;
export const SeqSchema = z.number().int().nonnegative().max(SEQ_MAX);

export const SendMessageSchema = z.object({
  roomId: uuid,
  // Chosen by the client so a retried send is recognised (docs/architecture.md "Trade chat").
  clientId: z.string().min(1).max(64).regex(/^[\w-]+$/),
  body: safeString(),
});

export const SyncSchema = z.object({
  roomId: uuid,
  afterSeq: SeqSchema.default(0),
});

export const TradeStepSchema = z.object({
  roomId: uuid,
  step: z.enum(TRADE_STEPS),
});

/** The partner names the card of a 何でも可 side (a card id of the catalogue or an import). */
export const ChooseCardSchema = z.object({
  roomId: uuid,
  cardId: z.string().min(1).max(64),
});

export const ReportSchema = z.object({
  messageId: uuid,
  reason: safeString().trim().min(1).max(500),
});

/** Body normalisation shared by the client (instant feedback) and the server (the gate). */
export function normaliseBody(body: string): string {
  // Control characters other than newline and tab are never useful in a chat line.
  return body.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
}
