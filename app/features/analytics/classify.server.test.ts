import { describe, expect, it } from "vitest";
import { agentOf, channelOf, isRobot, languageOf, optedOut, pageKindOf, publicPathOf, referrerHostOf, screenBucketOf, utmOf } from "./classify.server";
import { agentAndRobot, MAX_CACHED_AGENT_KEY, parseHit } from "./collect.server";
import { cacheStats } from "#app/lib/cache.server.ts";
import { tokyoDay, tokyoDayStart, visitorHash } from "./salt.server";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const HEADLESS = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36";

describe("analytics classification", () => {
  it("reads browser, OS and device class, never keeping the user agent", () => {
    expect(agentOf(IPHONE)).toEqual({ browser: "Safari", os: "iOS", device: "mobile" });
    expect(agentOf(CHROME)).toEqual({ browser: "Chrome", os: "Windows", device: "desktop" });
  });

  it("does not count robots, headless browsers or automation", () => {
    expect(isRobot(CHROME, undefined, false)).toBe(false);
    expect(isRobot("Googlebot/2.1 (+http://www.google.com/bot.html)", undefined, false)).toBe(true);
    expect(isRobot(HEADLESS, undefined, false)).toBe(true);
    expect(isRobot(CHROME, '"HeadlessChrome";v="131"', false)).toBe(true);
    expect(isRobot(CHROME, undefined, true)).toBe(true);
    expect(isRobot(undefined, undefined, false)).toBe(true);
  });

  it("respects Sec-GPC and DNT", () => {
    expect(optedOut({ gpc: "1" })).toBe(true);
    expect(optedOut({ dnt: "1" })).toBe(true);
    expect(optedOut({ gpc: "0", dnt: undefined })).toBe(false);
  });

  it("keeps the referrer's host only, and not our own", () => {
    expect(referrerHostOf("https://www.google.com/search?q=secret", "torepoke.example")).toBe("google.com");
    expect(referrerHostOf("https://torepoke.example/articles/x", "torepoke.example")).toBeNull();
    expect(referrerHostOf("javascript:alert(1)", "torepoke.example")).toBeNull();
    expect(referrerHostOf("not a url", "torepoke.example")).toBeNull();
  });

  it("sorts sources into channels", () => {
    expect(channelOf(null, null)).toBe("direct");
    expect(channelOf("google.com", null)).toBe("search");
    expect(channelOf("search.yahoo.co.jp", null)).toBe("search");
    expect(channelOf("x.com", null)).toBe("social");
    expect(channelOf("t.co", null)).toBe("social");
    expect(channelOf("example.jp", null)).toBe("referral");
    expect(channelOf("x.com", "cpc")).toBe("paid");
    expect(channelOf(null, "newsletter")).toBe("email");
  });

  it("knows the kind of every page and hides private ids", () => {
    expect(pageKindOf("/")).toBe("home");
    expect(pageKindOf("/articles/guide")).toBe("article");
    expect(pageKindOf("/deck-recipes/mew")).toBe("deck");
    expect(pageKindOf("/trades/new")).toBe("offer_new");
    expect(pageKindOf("/trades/0b7c")).toBe("offer");
    expect(pageKindOf("/cards/A1-001")).toBe("card");
    expect(pageKindOf("/admin")).toBeNull();
    expect(publicPathOf("/chat/5d0f-room", "chat")).toBe("/chat");
  });

  it("buckets screens, reads languages and UTM parameters", () => {
    expect(screenBucketOf(390)).toBe("mobile");
    expect(screenBucketOf(1280)).toBe("laptop");
    expect(screenBucketOf("x")).toBeNull();
    expect(languageOf("ja-JP,ja;q=0.9,en;q=0.8")).toBe("ja");
    expect(languageOf("*")).toBeNull();
    expect(utmOf("?utm_source=x&utm_medium=social&utm_campaign=launch")).toEqual({ source: "x", medium: "social", campaign: "launch" });
  });

  it("cuts UTM values at 100 characters without splitting an emoji", () => {
    // 99 letters then an emoji (two UTF-16 units): a cut by units would leave a lone high surrogate.
    const { source } = utmOf(`?utm_source=${"a".repeat(99)}${encodeURIComponent("🎉🎉")}`);
    expect(source).toBe(`${"a".repeat(99)}🎉`);
    expect(source!.isWellFormed()).toBe(true);
    expect(utmOf(`?utm_campaign=${"春".repeat(150)}`).campaign).toBe("春".repeat(100));
  });

  it("keeps parsed user agents up to a key length, and parses longer ones without keeping them", () => {
    const cached = () => cacheStats()["analytics-user-agents"] ?? 0;
    const before = cached();
    expect(agentAndRobot(`${CHROME} short-${before}`, undefined)).toEqual({ robot: false, agent: { browser: "Chrome", os: "Windows", device: "desktop" } });
    expect(cached()).toBe(before + 1);
    // A 16 KB user agent (or one with huge client hints) is classified just the same, but not kept.
    const long = `${CHROME} ${"x".repeat(16_000)}`;
    expect(agentAndRobot(long, undefined)).toEqual({ robot: false, agent: { browser: "Chrome", os: "Windows", device: "desktop" } });
    expect(agentAndRobot(CHROME, "a".repeat(MAX_CACHED_AGENT_KEY))).toEqual({ robot: false, agent: { browser: "Chrome", os: "Windows", device: "desktop" } });
    expect(agentAndRobot(`${HEADLESS} ${"x".repeat(16_000)}`, undefined).robot).toBe(true);
    expect(cached()).toBe(before + 1);
  });

  it("accepts only well-formed hits", () => {
    expect(parseHit('{"t":"pv","u":"/","w":390}')).toEqual({ t: "pv", u: "/", w: 390 });
    expect(parseHit('{"t":"xx","u":"/"}')).toBeNull();
    expect(parseHit("not json")).toBeNull();
    expect(parseHit('{"t":"en","u":"/","e":-5}')).toBeNull();
  });

  it("hashes a visitor per day salt and Tokyo days start at 00:00 JST", () => {
    expect(visitorHash("a", "1.2.3.4", "UA", "site")).toBe(visitorHash("a", "1.2.3.4", "UA", "site"));
    expect(visitorHash("a", "1.2.3.4", "UA", "site")).not.toBe(visitorHash("b", "1.2.3.4", "UA", "site"));
    expect(visitorHash("a", "1.2.3.4", "UA", "site")).not.toBe(visitorHash("a", "1.2.3.5", "UA", "site"));
    expect(tokyoDay(new Date("2026-03-09T15:00:00Z"))).toBe("2026-03-10");
    expect(tokyoDay(new Date("2026-03-09T14:59:59Z"))).toBe("2026-03-09");
    expect(tokyoDayStart("2026-03-10").toISOString()).toBe("2026-03-09T15:00:00.000Z");
  });
});
