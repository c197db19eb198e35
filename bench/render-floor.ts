// `npm run bench:render-floor`: what the lightest page (/terms) costs at each layer, in one process
// and sequentially (one request at a time, so the figures are CPU time, not queueing):
// 1. a bare `renderToString` of the /terms page component (the legal text) under the smallest
//    router it needs (`createRoutesStub`: no loaders, no document, no hydration data);
// 2. the same route through React Router's request handler (`createRequestHandler` of the built
//    server bundle, production mode): root loader, the server pipeline, entry.server's streamed
//    render of the whole document with its hydration data, the body read to the end;
// 3. the built server over HTTP (Express, its middleware, the page-cache check, the request
//    handler), one connection at a time, signed out past the page cache.
// The built bundle exports only `start`; a copy next to it also exports its React Router build, so
// 1 and 2 run the very code the server runs. Needs `npm run build`. Bounded by counts, 127.0.0.1.
process.env.NODE_ENV = "production";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
const root = path.resolve(import.meta.dirname, "..");
const bundle = path.join(root, "build/server/index.js");
const copy = path.join(root, "build/server/render-floor-bench.js");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function timeEach(label: string, run: () => Promise<unknown> | unknown): Promise<{ label: string; p50: number; mean: number }> {
  for (let i = 0; i < Math.min(100, ITERATIONS); i++) await run();
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { label, p50: percentile(times, 50), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

const source = readFileSync(bundle, "utf8");
if (!/\nexport \{ start \};\s*$/.test(source)) throw new Error("the server bundle's last line is not `export { start };`: rebuild or update this bench");
writeFileSync(copy, source.replace(/\nexport \{ start \};\s*$/, "\nexport { start, server_build_exports as serverBuild };\n"));
try {
  const { serverBuild } = (await import(copy)) as { serverBuild: import("react-router").ServerBuild };
  const { createElement } = await import("react");
  const { renderToString } = await import("react-dom/server");
  const { createRequestHandler, createRoutesStub, RouterContextProvider } = await import("react-router");
  const { migrateDatabase, openDatabase } = await import("#app/db/client.server.ts");
  const { loadEnv } = await import("#app/lib/env.server.ts");
  const { createLogger } = await import("#app/lib/logger.server.ts");
  const { startServer } = await import("#tests/support/server.ts");
  const autocannon = (await import("autocannon")).default;

  const database = await openDatabase({ kind: "pglite" });
  await migrateDatabase(database);
  const env = loadEnv({ SITE_URL: "http://127.0.0.1", LOG_LEVEL: "silent", DATA_DIR: path.join(root, "build") });
  const log = createLogger("silent");
  const Page = serverBuild.routes["routes/terms"]!.module.default as React.ComponentType;
  const handler = createRequestHandler(serverBuild, "production");
  const Stub = createRoutesStub([{ path: "/terms", Component: Page }]);
  let bytes = 0;
  const rows = [
    await timeEach("bare renderToString(<terms page />)", () => renderToString(createElement(Stub, { initialEntries: ["/terms"] }))),
    await timeEach("React Router handler, /terms signed out", async () => {
      const response = await handler(
        new Request("http://127.0.0.1/terms", { headers: { cookie: "bench=no-page-cache" } }),
        Object.assign(new RouterContextProvider(), { db: database.db, env, cspNonce: "bench", log, requestId: "bench" }) as never,
      );
      bytes = (await response.arrayBuffer()).byteLength;
    }),
  ];
  await database.close();
  const server = await startServer({ LOG_LEVEL: "warn" });
  try {
    const result = await autocannon({ url: `${server.url}/terms`, connections: 1, amount: ITERATIONS, headers: { cookie: "bench=no-page-cache" } });
    rows.push({ label: `built server over HTTP (${server.mode}), 1 connection`, p50: result.latency.p50, mean: result.latency.average });
  } finally {
    await server.stop();
  }
  const bare = rows[0].mean;
  console.log(`\n/terms floor, ${ITERATIONS} sequential runs each (one process for the first two; HTML ${(bytes / 1024).toFixed(1)} KB)`);
  console.log("| layer | p50 ms | mean ms | × bare render (mean) |");
  console.log("|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.label} | ${r.p50.toFixed(2)} | ${r.mean.toFixed(2)} | ${(r.mean / bare).toFixed(1)} |`);
} finally {
  rmSync(copy, { force: true });
}
