import { readdirSync } from "node:fs";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// Imports name modules from the root (package.json "imports": #app/…, #server/…, with the file's
// extension), never through "../": a path says where a module lives, whoever imports it.
// Layering (docs/architecture.md "Layout"): routes → features → lib / components → db.
// - lib, db and components/ui never import a feature or a route;
// - a feature imports another feature only through its public modules: services
//   (`*.server.ts`), `errors`, `messages`, `types`, `rules`, `protocol`, `*.schema`, `log-out`
//   and `components/*` — never its helpers, hooks or internal modules, whether by import or by
//   import() (no-restricted-imports does not see import(): LAYERS turns the same patterns into
//   no-restricted-syntax selectors for it);
// - nothing imports a route module (React Router loads them), except the server's JSON endpoints test.
const NO_PARENT = { regex: "^(\\.\\./|\\./(?!\\+types/)[^/]+/)", message: "Import from the root (#app/…, #server/…): ./ names a module in the same folder, never ../ or a folder below." };
const NO_FEATURES = { regex: "(^|/)(features|routes)/", message: "lib, db and components/ui sit below the features: move the shared piece down instead." };
const PUBLIC = "(?!components/|[\\w-]+\\.server\\.tsx?$|(errors|messages|types|rules|protocol|log-out)\\.tsx?$|[\\w-]+\\.schema\\.ts$)";
/** Another feature's internals; `own` (a feature's folder) may use its own. */
const OTHER_FEATURE_INTERNALS = (own) => ({
  regex: `^#app/features/${own ? `(?!${own}/)` : ""}[a-z-]+/${PUBLIC}`,
  message: "Import another feature only through its public modules (services, errors, messages, types, rules, protocol, schemas, components).",
});
const FEATURES = readdirSync(new URL("./app/features/", import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

// app/lib/zod.ts sets jitless before any schema exists (no eval under the CSP), so zod is
// imported from there only. ESLint replaces a rule's options per file rather than merging
// them, so every no-restricted-imports entry below repeats this path.
const NO_RAW_ZOD = { name: "zod", message: "Import { z } from app/lib/zod.ts (jitless under our CSP)." };

/** The layering rule for a set of files: the same patterns for `import … from` and for `import()`. */
const LAYERS = ({ paths, patterns = [] }) => ({
  "no-restricted-imports": ["error", { ...(paths ? { paths } : {}), patterns: [NO_PARENT, ...patterns] }],
  "no-restricted-syntax": [
    "error",
    ...[NO_PARENT, ...patterns].map(({ regex, message }) => ({
      // esquery reads the pattern between slashes: a slash inside it is escaped.
      selector: `ImportExpression > Literal.source[value=/${regex.replaceAll("/", "\\/")}/]`,
      message,
    })),
  ],
});

export default tseslint.config(
  { ignores: ["build/", "build-*/", "release/", ".react-router/", "node_modules/", "data/", "drizzle/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      // Server code logs through the JSON logger only (app/lib/logger.server.ts; requestLog(context)
      // in a loader or action): a console line has no level, no request id and is not JSON.
      "no-console": "error",
      "no-restricted-imports": ["error", { paths: [NO_RAW_ZOD] }],
    },
  },
  {
    // No import cycles anywhere in the app or the server: two modules that need each other's
    // data meet through a registration made at start-up instead (docs/architecture.md).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js"] })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    rules: LAYERS({ paths: [NO_RAW_ZOD] }),
  },
  {
    files: ["app/lib/**/*.{ts,tsx}", "app/db/**/*.ts", "app/components/ui/**/*.tsx"],
    rules: LAYERS({ paths: [NO_RAW_ZOD], patterns: [NO_FEATURES] }),
  },
  {
    files: ["app/lib/zod.ts"],
    rules: LAYERS({ patterns: [NO_FEATURES] }),
  },
  ...FEATURES.map((feature) => ({
    files: [`app/features/${feature}/**/*.{ts,tsx}`],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: LAYERS({ paths: [NO_RAW_ZOD], patterns: [OTHER_FEATURE_INTERNALS(feature), { regex: "(^|/)routes/", message: "Features never import routes." }] }),
  })),
  {
    // The site shell and the server reach features through their public modules too.
    files: ["app/components/layout/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: LAYERS({ paths: [NO_RAW_ZOD], patterns: [OTHER_FEATURE_INTERNALS(), { regex: "(^|/)routes/", message: "The shell never imports routes." }] }),
  },
  {
    // Page models (a page's reads across features) sit above the features, below the routes.
    files: ["app/pages/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: LAYERS({ paths: [NO_RAW_ZOD], patterns: [OTHER_FEATURE_INTERNALS(), { regex: "(^|/)routes/", message: "Page models never import routes." }] }),
  },
  {
    files: ["server/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: LAYERS({ paths: [NO_RAW_ZOD], patterns: [OTHER_FEATURE_INTERNALS()] }),
  },

  {
    // The browser keeps the console lines docs/product-rules.md §8 asks for (upload and search failures, …):
    // components may warn and report errors; the server code above may not.
    files: ["app/**/components/**/*.{ts,tsx}", "tests/**", "**/*.test.{ts,tsx}"],
    rules: { "no-console": ["error", { allow: ["warn", "error"] }] },
  },
  {
    files: ["scripts/**", "bench/**", "server.js"],
    rules: { "no-console": "off" },
  },
);
