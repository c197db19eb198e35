import { describe, expect, it } from "vitest";
import { startUpSlot } from "./start-up-slot";

describe("a start-up slot", () => {
  it("throws until it is filled, then answers what was registered last", () => {
    const slot = startUpSlot<(n: number) => number>("the doubler");
    expect(() => slot.get()).toThrow(/the doubler is not registered: registerFeatureLinks\(\)/);
    slot.fill((n) => n * 2);
    expect(slot.get()(4)).toBe(8);
    slot.fill((n) => n * 3);
    expect(slot.get()(4)).toBe(12);
  });
});
