/**
 * The chat's unsent messages, kept in localStorage so they survive a reload or a closed tab.
 *
 * - One entry per user and room: a message queued by one account is never sent by another that
 *   signs in later on the same browser, and log-out clears every entry (clearChatOutboxes).
 * - Tabs share the entry and change it entry by entry (read, merge by clientId, write), never by
 *   writing their own copy over it: what one tab queued survives another tab's write. Two tabs
 *   sending the same entry is harmless, the server stores a clientId once.
 */
export type PendingMessage = { clientId: string; body: string; attempts: number; queuedAt: number };

const PREFIX = "torepoke.chat.outbox";

export function outboxKey(userId: string, roomId: string): string {
  return `${PREFIX}:${userId}:${roomId}`;
}

/** localStorage, or null where the browser refuses it (private mode, disabled storage). */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function isPending(value: unknown): value is PendingMessage {
  const p = value as PendingMessage;
  return typeof p === "object" && p !== null && typeof p.clientId === "string" && typeof p.body === "string";
}

export function readOutbox(storage: Storage, key: string): PendingMessage[] {
  try {
    const saved: unknown = JSON.parse(storage.getItem(key) ?? "[]");
    if (!Array.isArray(saved)) return [];
    return saved.filter(isPending).map((p) => ({
      clientId: p.clientId,
      body: p.body,
      attempts: Number.isFinite(p.attempts) ? p.attempts : 0,
      queuedAt: Number.isFinite(p.queuedAt) ? p.queuedAt : 0,
    }));
  } catch {
    return [];
  }
}

function write(storage: Storage, key: string, entries: PendingMessage[]): PendingMessage[] {
  try {
    if (entries.length) storage.setItem(key, JSON.stringify(entries));
    else storage.removeItem(key);
  } catch {
    // Full or refused: the caller still holds the list in memory and keeps retrying.
  }
  return entries;
}

/** One list per clientId, oldest first: the order the messages were typed in, whichever tab. */
export function mergeOutboxes(...lists: PendingMessage[][]): PendingMessage[] {
  const byId = new Map<string, PendingMessage>();
  for (const list of lists) {
    for (const p of list) {
      const known = byId.get(p.clientId);
      byId.set(p.clientId, known ? { ...known, attempts: Math.max(known.attempts, p.attempts) } : p);
    }
  }
  return [...byId.values()].sort((a, b) => a.queuedAt - b.queuedAt);
}

export function addToOutbox(storage: Storage, key: string, entry: PendingMessage): PendingMessage[] {
  return write(storage, key, mergeOutboxes(readOutbox(storage, key), [entry]));
}

export function removeFromOutbox(storage: Storage, key: string, clientId: string): PendingMessage[] {
  return write(storage, key, readOutbox(storage, key).filter((p) => p.clientId !== clientId));
}

export function countAttempt(storage: Storage, key: string, clientId: string): PendingMessage[] {
  return write(storage, key, readOutbox(storage, key).map((p) => (p.clientId === clientId ? { ...p, attempts: p.attempts + 1 } : p)));
}

/** Log-out: nothing typed by this user stays behind for the next one (older unkeyed entries too). */
export function clearChatOutboxes(storage: Storage | null = browserStorage()): void {
  if (!storage) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Storage refused: there is nothing in it to clear.
  }
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
