/**
 * A counter of the writes that change what the trade board shows anyone: offers posted, edited,
 * bumped, closed, taken, completed or deleted; blocks; suspensions; display names. Caches of
 * board data (マッチ) are kept per version, so on one instance every write is visible at once.
 * With REDIS_URL the server relays each local change to the other instances (server/realtime.ts),
 * which bump their own counter: caches stay coherent across a fleet too. Writes made outside the
 * app (a CLI, SQL by hand) and time itself (expiry) are covered by the caches' short TTLs.
 */
let version = 0;
const listeners = new Set<() => void>();

export function boardVersion(): number {
  return version;
}

/** A write on this instance: bump, and tell whoever relays it to the other instances. */
export function noteBoardChange(): void {
  version++;
  for (const listener of listeners) listener();
}

/** Another instance reported a write. */
export function noteRemoteBoardChange(): void {
  version++;
}

export function onLocalBoardChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
