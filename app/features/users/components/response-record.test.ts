import { describe, expect, it } from "vitest";
import { replyTimeUnit } from "./response-record";

describe("replyTimeUnit", () => {
  it("says a median reply time in its largest whole unit, at least a minute", () => {
    expect(replyTimeUnit(0)).toEqual({ unit: "minutes", count: 1 });
    expect(replyTimeUnit(29 * 60)).toEqual({ unit: "minutes", count: 29 });
    expect(replyTimeUnit(59 * 60)).toEqual({ unit: "minutes", count: 59 });
    expect(replyTimeUnit(60 * 60)).toEqual({ unit: "hours", count: 1 });
    expect(replyTimeUnit(5.4 * 3600)).toEqual({ unit: "hours", count: 5 });
    expect(replyTimeUnit(23 * 3600)).toEqual({ unit: "hours", count: 23 });
    expect(replyTimeUnit(24 * 3600)).toEqual({ unit: "days", count: 1 });
    expect(replyTimeUnit(3.6 * 86_400)).toEqual({ unit: "days", count: 4 });
  });
});
