import { afterEach, describe, expect, it, vi } from "vitest";
import { cacheStats, createCache, scopeOf } from "./cache.server";

afterEach(() => vi.useRealTimers());

describe("createCache", () => {
  it("answers repeated reads from memory until the entry expires", async () => {
    vi.useFakeTimers();
    const cache = createCache<number>({ name: "test-ttl", max: 10, ttlMs: 1000 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.remember("k", load)).toBe(1);
    expect(await cache.remember("k", load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await cache.remember("k", load)).toBe(2);
  });

  it("shares one load between concurrent callers", async () => {
    const cache = createCache<string>({ name: "test-shared", max: 10, ttlMs: 60_000 });
    let loads = 0;
    let finish!: (value: string) => void;
    const load = () => {
      loads++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = cache.remember("k", load);
    const second = cache.remember("k", load);
    finish("done");
    expect(await Promise.all([first, second])).toEqual(["done", "done"]);
    expect(loads).toBe(1);
  });

  it("keeps at most `max` entries, dropping the least recently used", async () => {
    const cache = createCache<string>({ name: "test-max", max: 2, ttlMs: 60_000 });
    cache.set("a", "A");
    cache.set("b", "B");
    expect(cache.get("a")).toBe("A"); // a is now the most recent
    cache.set("c", "C");
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c")]).toEqual(["A", "C"]);
    expect(cacheStats()["test-max"]).toBe(2);
  });

  it("clears by prefix, and a load running during a clear is not kept", async () => {
    const cache = createCache<number>({ name: "test-clear", max: 10, ttlMs: 60_000 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.remember("catalogue:packs", load);
    await cache.remember("other", load);
    cache.clear("catalogue:");
    expect(await cache.remember("catalogue:packs", load)).toBe(3);
    expect(await cache.remember("other", load)).toBe(2);

    let finish!: (value: number) => void;
    const running = cache.remember("slow", () => new Promise<number>((resolve) => (finish = resolve)));
    cache.clear();
    finish(99);
    expect(await running).toBe(99);
    expect(cache.get("slow")).toBeUndefined();
  });

  it("does not keep a failed load", async () => {
    const cache = createCache<string>({ name: "test-fail", max: 10, ttlMs: 60_000 });
    await expect(cache.remember("f", () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.remember("f", async () => "ok")).toBe("ok");
  });

  it("gives each owner object its own stable scope", () => {
    const a = {};
    const b = {};
    expect(scopeOf(a)).toBe(scopeOf(a));
    expect(scopeOf(a)).not.toBe(scopeOf(b));
  });
});
