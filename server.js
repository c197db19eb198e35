// Process entry: the Express app, React Router and Socket.IO are built into one bundle by
// `npm run build` (vite.config.ts makes server/app.ts the SSR entry).
import { existsSync } from "node:fs";

// React, React DOM's server renderer and React Router pick their development or production build
// from NODE_ENV when they are first loaded, and Express reads it too: production unless the
// operator chose otherwise, set before the bundle (and with it those packages) is imported.
process.env.NODE_ENV ||= "production";

const entry = new URL(`./${process.env.BUILD_DIR ?? "build"}/server/index.js`, import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("The app is not built yet: run `npm run build` (or `npm start`, which builds first).\n");
  process.exit(1);
}
const { start } = await import(entry.href);
await start();
