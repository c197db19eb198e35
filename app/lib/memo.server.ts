/**
 * A small in-process cache for data that changes rarely and is read on every page (the pack
 * list, home-page showcases). PGlite runs one query at a time, so not asking it the same
 * question a hundred times a second is what keeps pages fast on one machine. Entries expire
 * after `ttlMs`, so several instances behind a load balancer converge within that time;
 * `forget(prefix)` drops entries at once after a local change (e.g. a card import).
 */
type Entry = { value: Promise<unknown>; expires: number };
const entries = new Map<string, Entry>();

export function memo<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  const value = load();
  entries.set(key, { value, expires: now + ttlMs });
  // A failed load is not cached: the next request tries again.
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

export function forget(prefix = ""): void {
  for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
}
