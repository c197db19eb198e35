import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Start-up leaves hundreds of megabytes of garbage outside the JavaScript heap: PGlite's first
 * start runs initdb in a WebAssembly instance of its own, and opening, migrating and loading the
 * card catalogue pass large buffers. V8 collects them only at a full collection, which a server
 * answering small requests may not run for a long time, so the process would sit on that memory
 * (≈ 700 MB instead of ≈ 400 MB with PGlite, measured with `npm run bench:uploads`). One full
 * collection once start-up is done, before the first request, gives it back.
 */
export function collectStartupGarbage(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed();
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (() => void) | undefined;
  gc?.();
}
