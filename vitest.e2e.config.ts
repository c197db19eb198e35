import { defineConfig } from "vitest/config";

// Browser and whole-server tests against the built app (`npm run build` first).
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A polled condition in these tests often loads a page of a real server on a shared machine:
    // vitest's one second gives it a single try when the machine is busy. A test may still set its own.
    expect: { poll: { timeout: 15_000 } },
    fileParallelism: false,
  },
});
