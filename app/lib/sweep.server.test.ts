import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "./logger.server";
import { startSweep } from "./sweep.server";

afterEach(() => {
  vi.useRealTimers();
});

describe("startSweep", () => {
  it("runs once soon after start, then every period; logs what a run did or why it failed; stops", async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = createLogger("info", (line) => lines.push(line));
    const results: Array<number | Error> = [0, 3, new Error("database gone")];
    let runs = 0;
    const sweep = startSweep({
      run: async () => {
        const next = results[runs++];
        if (next instanceof Error) throw next;
        return next ?? 0;
      },
      firstAfterMs: 1_000,
      everyMs: 60_000,
      log,
      did: "things done",
      failed: "things failed",
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(3);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; count?: number; error?: string });
    expect(logged.map((l) => l.msg)).toEqual(["things done", "things failed"]);
    expect(logged[0].count).toBe(3);
    expect(logged[1].error).toBe("database gone");
    sweep.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(3);
  });
});
