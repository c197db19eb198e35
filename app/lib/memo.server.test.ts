import { afterEach, describe, expect, it, vi } from "vitest";
import { forget, memo } from "./memo.server";

afterEach(() => {
  forget();
  vi.useRealTimers();
});

describe("memo", () => {
  it("answers repeated reads from memory until the entry expires", async () => {
    vi.useFakeTimers();
    let loads = 0;
    const load = async () => ++loads;
    expect(await memo("k", 1000, load)).toBe(1);
    expect(await memo("k", 1000, load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await memo("k", 1000, load)).toBe(2);
  });

  it("forgets by prefix", async () => {
    let loads = 0;
    const load = async () => ++loads;
    await memo("catalogue:packs", 60_000, load);
    await memo("other", 60_000, load);
    forget("catalogue:");
    expect(await memo("catalogue:packs", 60_000, load)).toBe(3);
    expect(await memo("other", 60_000, load)).toBe(2);
  });

  it("does not keep a failed load", async () => {
    await expect(memo("f", 60_000, () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await memo("f", 60_000, async () => "ok")).toBe("ok");
  });
});
