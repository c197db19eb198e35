import { describe, expect, it } from "vitest";
import { isIsoInstant, relativeTime, tokyoDateTime, tokyoDateTimeSeconds, tokyoLocalToIso, tokyoLongDate, tokyoDay } from "./tokyo-time";

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

describe("tokyoDateTimeSeconds", () => {
  it("prints Japan time to the second (two sign-ins may share a minute)", () => {
    expect(tokyoDateTimeSeconds("2026-01-10T15:30:05.000Z", "ja")).toBe("2026/01/11 0:30:05");
    expect(tokyoDateTimeSeconds("2026-01-10T15:30:05.000Z", "en")).toBe("11 Jan 2026, 00:30:05");
  });
});

describe("tokyoLongDate", () => {
  it("writes the date out in Japan time", () => {
    expect(tokyoLongDate("2026-01-10T15:30:00.000Z", "ja")).toBe("2026年1月11日");
    expect(tokyoLongDate("2026-01-10T15:30:00.000Z", "en")).toBe("11 January 2026");
  });
});

describe("tokyoLocalToIso", () => {
  it("reads a datetime-local value as Japan time, to the edges of the years and the day", () => {
    expect(tokyoLocalToIso("2026-12-01T10:00")).toBe("2026-12-01T01:00:00.000Z");
    expect(tokyoLocalToIso("2000-01-01T00:00")).toBe("1999-12-31T15:00:00.000Z");
    expect(tokyoLocalToIso("2100-12-31T23:59")).toBe("2100-12-31T14:59:00.000Z");
    expect(tokyoLocalToIso("2028-02-29T23:59")).toBe("2028-02-29T14:59:00.000Z");
  });

  it.each(["0000-01-01T00:00", "1999-12-31T23:59", "2101-01-01T00:00", "2026-02-30T10:00", "2027-02-29T10:00", "2026-04-31T10:00", "2026-13-01T10:00", "2026-00-10T10:00", "2026-01-00T10:00", "2026-01-01T24:00", "2026-01-01T23:60", "2026-01-01T10:00:00", "2026-1-1T10:00", "", "tomorrow"])(
    "names no real moment: %s",
    (value) => {
      expect(tokyoLocalToIso(value)).toBeNull();
    },
  );
});

describe("isIsoInstant", () => {
  it("takes what toISOString writes and nothing it would not", () => {
    expect(isIsoInstant("2026-11-25T18:00:00.123Z")).toBe(true);
    for (const value of ["2026-02-30T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-11-25T18:00:00Z", "2026-11-25", "1", "hello 2"]) {
      expect(isIsoInstant(value), value).toBe(false);
    }
  });
});

describe("tokyoDay", () => {
  it("is Japan's date, a day ahead of UTC's from 15:00 UTC", () => {
    expect(tokyoDay(Date.parse("2026-12-06T14:59:59Z"))).toBe("2026-12-06");
    expect(tokyoDay(Date.parse("2026-12-06T15:00:00Z"))).toBe("2026-12-07");
  });
});
