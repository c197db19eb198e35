import { describe, expect, it } from "vitest";
import { createWorkPool } from "./work-pool.server";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("createWorkPool", () => {
  it("runs at most `concurrency` tasks, lets `maxWaiting` wait and refuses the rest at once", async () => {
    const pool = createWorkPool({ concurrency: 2, maxWaiting: 1 });
    const gates = [gate(), gate(), gate()];
    let peak = 0;
    let now = 0;
    const places = [pool.enter(), pool.enter(), pool.enter()];
    expect(places.every(Boolean)).toBe(true);
    expect(pool.enter()).toBeNull();
    const done = places.map((place, i) =>
      place!.run(async () => {
        now++;
        peak = Math.max(peak, now);
        await gates[i].opened;
        now--;
        return i;
      }),
    );
    await Promise.resolve();
    expect(pool.running).toBe(2);
    gates[0].open();
    expect(await done[0]).toBe(0);
    gates[1].open();
    gates[2].open();
    expect(await Promise.all(done)).toEqual([0, 1, 2]);
    expect(peak).toBe(2);
    expect(pool.taken).toBe(0);
    expect(pool.enter()).not.toBeNull();
  });

  it("gives a place back when the task fails or the caller leaves before running", async () => {
    const pool = createWorkPool({ concurrency: 1, maxWaiting: 0 });
    const place = pool.enter()!;
    expect(pool.enter()).toBeNull();
    await expect(place.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const second = pool.enter()!;
    second.leave();
    second.leave();
    expect(pool.taken).toBe(0);
  });
});
