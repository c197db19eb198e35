import { describe, expect, it } from "vitest";
import { latestHourJst, nightlyDue } from "./schedule.server";

const at = (iso: string) => new Date(iso);

describe("the nightly backup's hour (Japan time)", () => {
  it("is the latest BACKUP_HOUR o'clock in Japan at or before now", () => {
    // 04:00 JST is 19:00 UTC the day before.
    expect(latestHourJst(at("2026-01-10T19:00:00Z"), 4).toISOString()).toBe("2026-01-10T19:00:00.000Z");
    expect(latestHourJst(at("2026-01-10T18:59:59Z"), 4).toISOString()).toBe("2026-01-09T19:00:00.000Z");
    expect(latestHourJst(at("2026-01-11T03:00:00Z"), 4).toISOString()).toBe("2026-01-10T19:00:00.000Z");
    // Midnight in Japan, across the UTC date line.
    expect(latestHourJst(at("2026-01-10T14:59:00Z"), 0).toISOString()).toBe("2026-01-09T15:00:00.000Z");
    expect(latestHourJst(at("2026-01-10T15:00:00Z"), 0).toISOString()).toBe("2026-01-10T15:00:00.000Z");
  });

  it("is due once a day: after the hour passes since the last backup, and not again that day", () => {
    const started = at("2026-01-01T00:00:00Z");
    expect(nightlyDue(at("2026-01-10T19:00:05Z"), 4, at("2026-01-09T19:00:04Z"), started)).toBe(true);
    expect(nightlyDue(at("2026-01-10T19:05:00Z"), 4, at("2026-01-10T19:00:05Z"), started)).toBe(false);
    expect(nightlyDue(at("2026-01-10T18:59:00Z"), 4, at("2026-01-09T19:00:05Z"), started)).toBe(false);
    // A backup on request after the hour counts for the night.
    expect(nightlyDue(at("2026-01-10T23:00:00Z"), 4, at("2026-01-10T20:00:00Z"), started)).toBe(false);
  });

  it("a server that was down at the hour makes it when it is back; a folder with none waits for the first night", () => {
    expect(nightlyDue(at("2026-01-11T01:00:00Z"), 4, at("2026-01-08T19:00:00Z"), at("2026-01-11T00:59:00Z"))).toBe(true);
    expect(nightlyDue(at("2026-01-11T01:00:00Z"), 4, null, at("2026-01-11T00:59:00Z"))).toBe(false);
    expect(nightlyDue(at("2026-01-11T19:00:01Z"), 4, null, at("2026-01-11T00:59:00Z"))).toBe(true);
  });

  it("BACKUP_HOUR=off: never", () => {
    expect(nightlyDue(at("2026-01-11T19:00:01Z"), null, null, at("2026-01-01T00:00:00Z"))).toBe(false);
  });
});
