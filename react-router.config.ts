import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel test runs build side by side without replacing each other's bundle.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // React Router v8's behaviour now (and no future-flag warnings at build time).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    // Off on purpose: loaders and actions read `request.url` (26 modules), which this flag would
    // hand over raw (with `.data` suffixes and `_routes`). Turning it on means moving them to the
    // `url` argument first.
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
