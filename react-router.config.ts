import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel test runs build side by side without replacing each other's bundle.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
