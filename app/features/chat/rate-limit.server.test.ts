import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./rate-limit.server";

describe("the in-process message rate limiter", () => {
  it("allows 20 messages per 10 s per user, then refuses until the window slides", async () => {
    let t = 1_000_000;
    const limiter = createMemoryRateLimiter({ limit: 20, windowMs: 10_000 }, () => t);
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await limiter.allow("a"));
    expect(answers.filter(Boolean)).toHaveLength(20);
    expect(answers[20]).toBe(false);
    // Another user has their own window.
    expect(await limiter.allow("b")).toBe(true);
    t += 9_999;
    expect(await limiter.allow("a")).toBe(false);
    t += 2;
    expect(await limiter.allow("a")).toBe(true);
  });
});
