import { afterEach, beforeEach } from "vitest";

/**
 * A console error or warning during a unit or integration test fails it, unless the test expects
 * it (it replaces the method with `vi.spyOn(console, "error").mockImplementation(…)` and asserts
 * on the calls). What was printed is named in the failure.
 */
const unexpected: string[] = [];
const original = { error: console.error, warn: console.warn };

for (const level of ["error", "warn"] as const) {
  // eslint-disable-next-line no-console -- the guard replaces these two methods on purpose
  console[level] = (...args: unknown[]) => {
    unexpected.push(`console.${level}: ${args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ")}`);
    original[level](...args);
  };
}

beforeEach(() => {
  unexpected.length = 0;
});

afterEach(() => {
  if (unexpected.length === 0) return;
  const printed = unexpected.splice(0).join("\n");
  throw new Error(`unexpected console output during the test:\n${printed}`);
});
