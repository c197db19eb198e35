import { describe, expect, it } from "vitest";
import { createLogger, errorFields, requestLog } from "./logger.server";

describe("the JSON logger", () => {
  it("writes one JSON line per call at or above its level, and a child adds its fields to every line", () => {
    const lines: string[] = [];
    const log = createLogger("info", (line) => lines.push(line));
    log.debug("hidden");
    const child = log.child({ requestId: "r-1" });
    child.info("request", { status: 200 });
    child.child({ job: "mail" }).warn("slow");
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: "info", msg: "request", requestId: "r-1", status: 200 },
      { level: "warn", msg: "slow", requestId: "r-1", job: "mail" },
    ]);
    expect(lines.every((line) => line.endsWith("}\n"))).toBe(true);
  });

  it("names an error by message and stack", () => {
    const fields = errorFields(new Error("boom"));
    expect(fields.error).toBe("boom");
    expect(fields.stack).toContain("Error: boom");
    expect(errorFields("plain")).toEqual({ error: "plain" });
  });

  it("a request's logger is the one on its context; a context without one gets one at its LOG_LEVEL", () => {
    const own = createLogger("silent");
    expect(requestLog({ log: own })).toBe(own);
    expect(requestLog({ env: { logLevel: "warn" } })).toBe(requestLog({ env: { logLevel: "warn" } }));
  });
});
