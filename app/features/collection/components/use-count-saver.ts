import { useCallback, useEffect, useRef, useState } from "react";
import { send } from "#app/lib/send.ts";
import { addToQueue, browserStorage, clearQueues, countQueueAttempt, readQueue, removeFromQueue, retryDelayMs, type PendingEntry, type QueueReader } from "#app/lib/send-queue.ts";
import { countChangeAnswer, MAX_CHANGES } from "#app/features/collection/answers.ts";

/** A count change not yet saved: the card's new absolute count (sending it twice is harmless). */
export type PendingCount = PendingEntry & { cardId: string; count: number };

const PREFIX = "torepoke.collection.queue";
/** After this many failed tries the page says the changes are not saved yet (it keeps trying). */
export const TRIES_BEFORE_WARNING = 2;

const readCount: QueueReader<PendingCount> = (value, base) =>
  typeof value.cardId === "string" && Number.isInteger(value.count) ? { ...base, cardId: value.cardId, count: value.count as number } : null;

export const countQueueKey = (userId: string) => `${PREFIX}:${userId}`;

/** Log-out: no count change of this player is sent by the next one on this browser. */
export function clearCollectionQueues(): void {
  clearQueues(PREFIX);
}

export type SaverState =
  | { kind: "idle" }
  | { kind: "saving"; pending: number }
  | { kind: "offline"; pending: number }
  | { kind: "retrying"; pending: number }
  | { kind: "refused"; message: string };

let sequence = 0;
const newClientId = () => `${Date.now().toString(36)}-${(sequence++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Saves count changes at once, through the site's one send queue (lib/send-queue.ts): each
 * change is queued in localStorage first, then everything queued goes in one request; a network
 * failure or a 5xx/429 keeps the queue and tries again (sooner when the browser comes back
 * online), a refusal (a count out of range, an unknown card) drops the change and says why.
 * `overrides` are the counts shown until the page's data catches up.
 */
export function useCountSaver(userId: string, onSaved: () => void) {
  const key = countQueueKey(userId);
  const [overrides, setOverrides] = useState<ReadonlyMap<string, number>>(() => new Map());
  const [state, setState] = useState<SaverState>({ kind: "idle" });
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const memory = useRef<PendingCount[]>([]);
  const onSavedRef = useRef(onSaved);
  useEffect(() => {
    onSavedRef.current = onSaved;
  }, [onSaved]);

  // What is queued: the stored queue, plus changes this page could not store (no storage, or a
  // full or refusing one) kept in memory so they are still sent.
  const queued = useCallback((): PendingCount[] => {
    const storage = browserStorage();
    return storage ? [...readQueue(storage, key, readCount), ...memory.current] : memory.current;
  }, [key]);

  const flush = useCallback(async (): Promise<void> => {
    if (inFlight.current) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const all = queued();
    if (!all.length) {
      setState({ kind: "idle" });
      return;
    }
    // Counts are absolute: a card's last queued count is the one to send, and one request carries
    // at most MAX_CHANGES cards (the rest go next), so no number of taps is ever too many.
    const lastOf = new Map<string, PendingCount>();
    const batch: PendingCount[] = [];
    for (const entry of all) {
      if (!lastOf.has(entry.cardId) && lastOf.size >= MAX_CHANGES) continue;
      lastOf.set(entry.cardId, entry);
      batch.push(entry);
    }
    inFlight.current = true;
    setState({ kind: "saving", pending: all.length });
    const storage = browserStorage();
    const ids = batch.map((p) => p.clientId);
    const drop = () => {
      if (storage) removeFromQueue(storage, key, readCount, ids);
      memory.current = memory.current.filter((p) => !ids.includes(p.clientId));
    };
    let retry = false;
    try {
      const sent = await send("/api/collection/counts", { json: { changes: [...lastOf.values()].map((p) => ({ cardId: p.cardId, count: p.count })) } }, countChangeAnswer);
      if (sent.ok) {
        drop();
      } else if (sent.status === 401 || sent.status === 403) {
        // Signed out meanwhile: the changes stay queued for when this player signs in again.
        setState({ kind: "refused", message: sent.refusal?.message ?? `HTTP ${sent.status}` });
        inFlight.current = false;
        return;
      } else if (sent.status === 429 || sent.status >= 500 || sent.status === 0) {
        retry = true;
      } else {
        drop();
        setOverrides(new Map());
        setState({ kind: "refused", message: sent.refusal?.message ?? `HTTP ${sent.status}` });
        inFlight.current = false;
        onSavedRef.current();
        return;
      }
    } catch {
      // The network failed (offline, a dropped connection): the queue keeps the changes.
      retry = true;
    }
    inFlight.current = false;
    if (retry) {
      memory.current = memory.current.map((p) => (ids.includes(p.clientId) ? { ...p, attempts: p.attempts + 1 } : p));
      const after = [...(storage ? countQueueAttempt(storage, key, readCount, ids) : []), ...memory.current];
      const attempts = Math.max(0, ...after.map((p) => p.attempts));
      const offline = typeof navigator !== "undefined" && navigator.onLine === false;
      setState({ kind: offline ? "offline" : attempts >= TRIES_BEFORE_WARNING ? "retrying" : "saving", pending: after.length });
      timer.current = setTimeout(() => void flush(), retryDelayMs(attempts));
      return;
    }
    // Changes made while this request was out go next.
    if (queued().length) void flush();
    else {
      setState({ kind: "idle" });
      onSavedRef.current();
    }
  }, [key, queued]);

  /** Queues absolute counts and shows them at once. */
  const change = useCallback(
    (changes: readonly { cardId: string; count: number }[]) => {
      if (!changes.length) return;
      const now = Date.now();
      const entries = changes.map((c, i) => ({ clientId: newClientId(), cardId: c.cardId, count: c.count, attempts: 0, queuedAt: now + i / 1000 }));
      const storage = browserStorage();
      if (storage) addToQueue(storage, key, readCount, ...entries);
      // A storage that did not take them (full, or refusing writes): they are kept in memory.
      const stored = storage ? new Set(readQueue(storage, key, readCount).map((p) => p.clientId)) : new Set<string>();
      const unstored = entries.filter((e) => !stored.has(e.clientId));
      if (unstored.length) memory.current = [...memory.current, ...unstored];
      setOverrides((old) => {
        const next = new Map(old);
        for (const c of changes) next.set(c.cardId, c.count);
        return next;
      });
      void flush();
    },
    [flush, key],
  );

  /** Counts the server already wrote (a bulk action's answer): shown without queueing. */
  const showSaved = useCallback((counts: readonly { cardId: string; count: number }[]) => {
    setOverrides((old) => {
      const next = new Map(old);
      for (const c of counts) next.set(c.cardId, c.count);
      return next;
    });
  }, []);

  useEffect(() => {
    // Changes left from an earlier visit (a closed tab, a lost connection) are shown and sent.
    const left = queued();
    if (left.length) {
      setOverrides(new Map(left.map((p) => [p.cardId, p.count])));
      void flush();
    }
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [flush, queued]);

  return { overrides, state, change, showSaved, retryNow: flush };
}
