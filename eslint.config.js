import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build-*/", ".react-router/", "node_modules/", "data/", "drizzle/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
      // app/lib/zod.ts sets jitless before any schema exists (no eval under the CSP).
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: "Import { z } from app/lib/zod.ts (jitless under our CSP)." }] }],
    },
  },
  {
    files: ["app/lib/zod.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["scripts/**", "bench/**", "server.js"],
    rules: { "no-console": "off" },
  },
);
