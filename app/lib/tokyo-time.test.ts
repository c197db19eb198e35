import { describe, expect, it } from "vitest";
import { relativeTime, tokyoDateTime, tokyoLongDate } from "./tokyo-time";

describe("offer times", () => {
  const now = "2026-01-10T12:00:00.000Z";
  it("says how long ago, relative to the loader's clock", () => {
    expect(relativeTime("2026-01-10T09:00:00.000Z", now, "ja", "たった今")).toBe("3 時間前");
    expect(relativeTime("2026-01-08T12:00:00.000Z", now, "en", "just now")).toBe("2 days ago");
    expect(relativeTime("2026-01-10T11:59:30.000Z", now, "ja", "たった今")).toBe("たった今");
  });
  it("prints Japan time", () => {
    expect(tokyoDateTime("2026-01-10T15:30:00.000Z", "ja")).toBe("1/11 00:30");
  });
});

describe("tokyoLongDate", () => {
  it("writes the date out in Japan time", () => {
    expect(tokyoLongDate("2026-01-10T15:30:00.000Z", "ja")).toBe("2026年1月11日");
    expect(tokyoLongDate("2026-01-10T15:30:00.000Z", "en")).toBe("11 January 2026");
  });
});
