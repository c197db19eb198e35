import { describe, expect, it } from "vitest";
import { databaseLimit, memoryLimit } from "./rate-limit.server";

describe("the one rate-limit API", () => {
  it("a memory limit allows max takes per sliding window and key, then refuses until the window slides", async () => {
    let t = 1_000_000;
    const limiter = memoryLimit({ name: "test", max: 20, window: { ms: 10_000 } }, () => t);
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await limiter.take("a"));
    expect(answers.filter(Boolean)).toHaveLength(20);
    expect(answers[20]).toBe(false);
    // Another key has its own window.
    expect(await limiter.take("b")).toBe(true);
    t += 9_999;
    expect(await limiter.take("a")).toBe(false);
    t += 2;
    expect(await limiter.take("a")).toBe(true);
  });

  it("a named window is as long as its name says", async () => {
    let t = 0;
    const limiter = memoryLimit({ name: "test", max: 1, window: "minute" }, () => t);
    expect(await limiter.take("a")).toBe(true);
    t += 59_999;
    expect(await limiter.take("a")).toBe(false);
    t += 2;
    expect(await limiter.take("a")).toBe(true);
  });

  it("a database limit refuses to count outside the action's transaction", async () => {
    const limiter = databaseLimit({ name: "test", max: 1, window: "hour" });
    await expect(limiter.take("a")).rejects.toThrow(/counted in the action's transaction/);
  });
});
