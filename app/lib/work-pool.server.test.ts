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

  it("starts waiting tasks in the order they arrived, whatever order the running ones finish in", async () => {
    const pool = createWorkPool({ concurrency: 2, maxWaiting: 4 });
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    const done = gates.map((g, i) =>
      pool.enter()!.run(async () => {
        started.push(i);
        await g.opened;
      }),
    );
    expect(pool.enter()).toBeNull();
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    // The second running task finishes first: the longest waiting task (2) gets its place, not a later one.
    gates[1].open();
    await done[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    await done[0];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    await Promise.all(done);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pool.taken).toBe(0);
  });
  it("with an unbounded line, admits everyone and still runs at most `concurrency` at once", async () => {
    const pool = createWorkPool({ concurrency: 2, maxWaiting: Number.POSITIVE_INFINITY });
    const gates = Array.from({ length: 50 }, gate);
    let now = 0;
    let peak = 0;
    const done = gates.map((g) =>
      pool.enter()!.run(async () => {
        now++;
        peak = Math.max(peak, now);
        await g.opened;
        now--;
      }),
    );
    await Promise.resolve();
    expect(pool.running).toBe(2);
    expect(pool.taken).toBe(50);
    for (const g of gates) g.open();
    await Promise.all(done);
    expect(peak).toBe(2);
    expect(pool.taken).toBe(0);
  });
});
