/**
 * The one queue of changes the browser has not yet got through to the server (the chat's unsent
 * messages, the collection's count changes), kept in localStorage so they survive a reload, a
 * closed tab or a flaky connection, and sent again until the server answers.
 *
 * - One entry list per key; a feature keys it per user (and room), so what one account queued is
 *   never sent by another that signs in later on the same browser; log-out clears a prefix.
 * - Tabs share the list and change it entry by entry (read, merge by clientId, write), never by
 *   writing their own copy over it: what one tab queued survives another tab's write.
 */
export type PendingEntry = { clientId: string; attempts: number; queuedAt: number };

/** How a feature's entries are read back: the validated entry, or null for one it does not know. */
export type QueueReader<E extends PendingEntry> = (value: Record<string, unknown>, base: PendingEntry) => E | null;

/** localStorage, or null where the browser refuses it (private mode, disabled storage). */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export function readQueue<E extends PendingEntry>(storage: Storage, key: string, reader: QueueReader<E>): E[] {
  try {
    const saved: unknown = JSON.parse(storage.getItem(key) ?? "[]");
    if (!Array.isArray(saved)) return [];
    return saved.flatMap((value: unknown) => {
      if (typeof value !== "object" || value === null) return [];
      const v = value as Record<string, unknown>;
      if (typeof v.clientId !== "string") return [];
      const base: PendingEntry = {
        clientId: v.clientId,
        attempts: Number.isFinite(v.attempts) ? (v.attempts as number) : 0,
        queuedAt: Number.isFinite(v.queuedAt) ? (v.queuedAt as number) : 0,
      };
      const entry = reader(v, base);
      return entry ? [entry] : [];
    });
  } catch {
    return [];
  }
}

function write<E extends PendingEntry>(storage: Storage, key: string, entries: E[]): E[] {
  try {
    if (entries.length) storage.setItem(key, JSON.stringify(entries));
    else storage.removeItem(key);
  } catch {
    // Full or refused: the caller still holds the list in memory and keeps retrying.
  }
  return entries;
}

/** One list per clientId, oldest first: the order the changes were made in, whichever tab. */
export function mergeQueues<E extends PendingEntry>(...lists: E[][]): E[] {
  const byId = new Map<string, E>();
  for (const list of lists) {
    for (const p of list) {
      const known = byId.get(p.clientId);
      byId.set(p.clientId, known ? { ...known, attempts: Math.max(known.attempts, p.attempts) } : p);
    }
  }
  return [...byId.values()].sort((a, b) => a.queuedAt - b.queuedAt);
}

export function addToQueue<E extends PendingEntry>(storage: Storage, key: string, reader: QueueReader<E>, ...entries: E[]): E[] {
  return write(storage, key, mergeQueues(readQueue(storage, key, reader), entries));
}

export function removeFromQueue<E extends PendingEntry>(storage: Storage, key: string, reader: QueueReader<E>, clientIds: readonly string[]): E[] {
  const gone = new Set(clientIds);
  return write(storage, key, readQueue(storage, key, reader).filter((p) => !gone.has(p.clientId)));
}

export function countQueueAttempt<E extends PendingEntry>(storage: Storage, key: string, reader: QueueReader<E>, clientIds: readonly string[]): E[] {
  const tried = new Set(clientIds);
  return write(storage, key, readQueue(storage, key, reader).map((p) => (tried.has(p.clientId) ? { ...p, attempts: p.attempts + 1 } : p)));
}

/** Log-out: every list under `prefix` goes, so nothing queued by this user stays behind for the next one. */
export function clearQueues(prefix: string, storage: Storage | null = browserStorage()): void {
  if (!storage) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Storage refused: there is nothing in it to clear.
  }
}

/** Wait before the next try of an entry tried `attempts` times: 1 s doubling to at most 30 s. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5));
}
