import { describe, expect, it } from "vitest";
import { NotificationCursorSchema } from "./notifications.schema";

describe("NotificationCursorSchema", () => {
  it("reads the cursor the inbox writes", () => {
    expect(NotificationCursorSchema.parse("2026-11-25T18:00:00.123Z_0b7c6f1e-3f4a-4c2b-9d1e-2a3b4c5d6e7f")).toEqual({
      at: "2026-11-25T18:00:00.123Z",
      id: "0b7c6f1e-3f4a-4c2b-9d1e-2a3b4c5d6e7f",
    });
  });

  it.each([
    ["an impossible date", "2026-13-45T99:99:99Z_0b7c6f1e-3f4a-4c2b-9d1e-2a3b4c5d6e7f"],
    ["a day the month does not have", "2026-02-30T00:00:00.000Z_0b7c6f1e-3f4a-4c2b-9d1e-2a3b4c5d6e7f"],
    ["year 0000, which PostgreSQL has not", "0000-01-01T00:00:00.000Z_0b7c6f1e-3f4a-4c2b-9d1e-2a3b4c5d6e7f"],
    ["an id that is no uuid", "2026-11-25T18:00:00.123Z_------------------------------------"],
    ["a short id", "2026-11-25T18:00:00.123Z_0b7c6f1e"],
  ])("refuses %s (the page answers 400 instead of a database error)", (_name, raw) => {
    expect(NotificationCursorSchema.safeParse(raw).success).toBe(false);
  });
});
