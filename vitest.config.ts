import { defineConfig } from "vitest/config";

// Unit tests sit beside the code; the integration suite runs once on PGlite (in memory) and
// again on PostgreSQL when TEST_DATABASE_URL is set (one SQL dialect for both: decision record 001).
const integration = (name: string, driver: "pglite" | "postgres") => ({
  test: {
    name,
    include: ["tests/integration/**/*.test.ts"],
    env: { TEST_DB: driver },
    setupFiles: ["tests/support/console-guard.ts", "tests/support/feature-links.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/support/**/*.test.ts"],
          setupFiles: ["tests/support/console-guard.ts"],
        },
      },
      integration("integration-pglite", "pglite"),
      ...(process.env.TEST_DATABASE_URL ? [integration("integration-pg", "postgres")] : []),
    ],
  },
});
