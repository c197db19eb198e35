import { describe, expect, it } from "vitest";
import { periodOf } from "./dashboard.server";
import { AnalyticsError } from "./errors";

const custom = (from: string, to: string) => ({ range: "custom" as const, from, to });

describe("periodOf", () => {
  it("takes a real custom period and the same length before it", () => {
    const { period, previous } = periodOf(custom("2025-02-01", "2025-02-28"));
    expect(period).toEqual({ from: "2025-02-01", to: "2025-02-28" });
    expect(previous).toEqual({ from: "2025-01-04", to: "2025-01-31" });
  });

  it.each([
    ["2025-02-31", "2025-03-02"],
    ["2025-01-01", "2025-13-01"],
    ["0000-01-01", "0000-01-02"],
    ["2025-1-1", "2025-01-02"],
    ["2025-03-02", "2025-03-01"],
  ])("refuses %s → %s as invalid_period (never a database error)", (from, to) => {
    expect(() => periodOf(custom(from, to))).toThrowError(AnalyticsError);
  });
});
