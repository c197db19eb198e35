import { LRUCache } from "lru-cache";

/**
 * The one in-process cache (docs/decisions/009): a named, size-bounded LRU with a TTL, on
 * `lru-cache`. The service that owns the data creates its cache, builds its keys and clears what
 * its writes change; routes only call the service. Entries expire after `ttlMs`, so several
 * instances behind a load balancer converge within that time.
 *
 *   const packsCache = createCache<PackInfo[]>({ name: "catalogue", max: 50, ttlMs: 60_000 });
 *   packsCache.remember(`${scopeOf(db)}:packs`, () => loadPacks(db));
 *   packsCache.clear(`${scopeOf(db)}:`); // after an import
 */
export type CacheOptions = {
  /** Shown by `cacheStats()`; one name per cache. */
  name: string;
  /** How many entries are kept at most; the least recently used goes first. */
  max: number;
  /** How long an entry answers, in milliseconds. */
  ttlMs: number;
};

export type Cache<V> = {
  readonly name: string;
  /**
   * The kept value of `key`, or `load()`'s: concurrent callers share one load (the promise is
   * kept), and a failed load is dropped so the next call tries again.
   */
  remember(key: string, load: () => Promise<V>): Promise<V>;
  /** The kept value, without loading; undefined when missing or expired. */
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs?: number): void;
  delete(key: string): void;
  /** Drops every key that starts with `prefix` (all keys without one). */
  clear(prefix?: string): void;
  readonly size: number;
};

const registry = new Map<string, Cache<unknown>>();

export function createCache<V>(options: CacheOptions): Cache<V> {
  // Wall-clock time, read on each call (tests move it with fake timers).
  const perf = { now: () => Date.now() };
  const store = new LRUCache<string, { value: V }>({ max: options.max, ttl: options.ttlMs, perf });
  const promises = new LRUCache<string, Promise<V>>({ max: options.max, ttl: options.ttlMs, perf });
  const cache: Cache<V> = {
    name: options.name,
    remember(key, load) {
      const kept = store.get(key);
      if (kept) return Promise.resolve(kept.value);
      const pending = promises.get(key);
      if (pending) return pending;
      const value = load();
      promises.set(key, value);
      value.then(
        (resolved) => {
          if (promises.get(key) !== value) return;
          promises.delete(key);
          store.set(key, { value: resolved });
        },
        () => {
          if (promises.get(key) === value) promises.delete(key);
        },
      );
      return value;
    },
    get: (key) => store.get(key)?.value,
    set: (key, value, ttlMs) => {
      promises.delete(key);
      store.set(key, { value }, ttlMs === undefined ? undefined : { ttl: ttlMs });
    },
    delete: (key) => {
      promises.delete(key);
      store.delete(key);
    },
    clear: (prefix = "") => {
      for (const key of [...store.keys()]) if (key.startsWith(prefix)) store.delete(key);
      for (const key of [...promises.keys()]) if (key.startsWith(prefix)) promises.delete(key);
    },
    get size() {
      return store.size + promises.size;
    },
  };
  registry.set(options.name, cache as Cache<unknown>);
  return cache;
}

/** Entry counts per cache name (for logs and tests). */
export function cacheStats(): Record<string, number> {
  return Object.fromEntries([...registry].map(([name, cache]) => [name, cache.size]));
}

const scopes = new WeakMap<object, string>();
let nextScope = 0;

/**
 * A short stable key part for an object the data belongs to (a database handle): tests and tools
 * open several databases in one process, and their cached rows must never mix.
 */
export function scopeOf(owner: object): string {
  let scope = scopes.get(owner);
  if (scope === undefined) scopes.set(owner, (scope = `s${++nextScope}`));
  return scope;
}
