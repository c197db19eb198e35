import { afterEach, describe, expect, it, vi } from "vitest";

// The guard's own check: a test that expects console output spies on it and passes; the guard
// itself reports unexpected output (checked here by calling its afterEach hook's condition).
describe("the console guard", () => {
  afterEach(() => vi.restoreAllMocks());

  it("lets a test that expects an error spy on it", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    console.error("expected failure");
    expect(spy).toHaveBeenCalledWith("expected failure");
  });

  it.fails("fails a test that prints a warning it did not expect", () => {
    console.warn("unexpected warning");
  });
});
