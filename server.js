// Process entry: the Express app, React Router and Socket.IO are built into one bundle by
// `npm run build` (vite.config.ts makes server/app.ts the SSR entry).
import { existsSync } from "node:fs";

const entry = new URL(`./${process.env.BUILD_DIR ?? "build"}/server/index.js`, import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("The app is not built yet: run `npm run build` (or `npm start`, which builds first).\n");
  process.exit(1);
}
const { start } = await import(entry.href);
await start();
