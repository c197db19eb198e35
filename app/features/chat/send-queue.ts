import { addToQueue, browserStorage, clearQueues, countQueueAttempt, mergeQueues, readQueue, removeFromQueue, type PendingEntry, type QueueReader } from "#app/lib/send-queue.ts";

/**
 * The chat's unsent messages, in the site's one send queue (lib/send-queue.ts): kept in
 * localStorage so they survive a reload or a closed tab, one entry list per user and room, cleared
 * at log-out (clearChatOutboxes). Two tabs sending the same entry is harmless, the server stores a clientId once.
 */
export type PendingMessage = PendingEntry & { body: string };

const PREFIX = "torepoke.chat.outbox";

const readMessage: QueueReader<PendingMessage> = (value, base) => (typeof value.body === "string" ? { clientId: base.clientId, body: value.body, attempts: base.attempts, queuedAt: base.queuedAt } : null);

export { browserStorage };

export function outboxKey(userId: string, roomId: string): string {
  return `${PREFIX}:${userId}:${roomId}`;
}

export function readOutbox(storage: Storage, key: string): PendingMessage[] {
  return readQueue(storage, key, readMessage);
}

/** One list per clientId, oldest first: the order the messages were typed in, whichever tab. */
export function mergeOutboxes(...lists: PendingMessage[][]): PendingMessage[] {
  return mergeQueues(...lists);
}

export function addToOutbox(storage: Storage, key: string, entry: PendingMessage): PendingMessage[] {
  return addToQueue(storage, key, readMessage, entry);
}

export function removeFromOutbox(storage: Storage, key: string, clientId: string): PendingMessage[] {
  return removeFromQueue(storage, key, readMessage, [clientId]);
}

export function countAttempt(storage: Storage, key: string, clientId: string): PendingMessage[] {
  return countQueueAttempt(storage, key, readMessage, [clientId]);
}

/** Log-out: nothing typed by this user stays behind for the next one (older unkeyed entries too). */
export function clearChatOutboxes(storage: Storage | null = browserStorage()): void {
  clearQueues(PREFIX, storage);
}

/** Entries from before they were kept per user: whose they are is unknown, so they are never sent. */
export function dropUnownedOutbox(storage: Storage, roomId: string): void {
  try {
    storage.removeItem(`${PREFIX}.${roomId}`);
  } catch {
    // ignore
  }
}

/**
 * What the chat client does with a message the server refused: send it again later (a limit, or a
 * failure of ours) or drop it and say why (blocked, not found, too long: sending again changes nothing).
 */
export function refusalOutcome(code: string): "retry-later" | "drop" {
  return code === "rate_limited" || code === "unavailable" ? "retry-later" : "drop";
}
