// `npm run bench:pages-profile`: where a page rendered anew spends the server's CPU. Starts the
// built server (production mode) with the inspector on 127.0.0.1, seeds the data of bench:pages,
// and for each page takes a CPU profile (V8's sampling profiler, 250 µs) while autocannon loads it
// with BENCH_CONNECTIONS (default 20) for BENCH_SECONDS (default 8) — with `accept-encoding: gzip,
// br` as a browser sends, so compression is in the profile. For each page it prints the main
// thread's busy ms per request (V8 samples on the wall clock: time the thread was preempted by other
// threads or processes counts where it stood), split by where the sampled code lives (React's server renderer, React Router, our bundle,
// the database driver, Drizzle, compression, garbage collection, …), and our bundle's heaviest
// functions (self and inclusive). BENCH_ONLY=pglite|postgres (default pglite); BENCH_PAGES a
// comma-separated list of paths or, for those made when the bench seeds, the start of a name ("article", "deck") (default: /terms, /, /profile, /cards?pack=…, /trades signed out and in, マッチ, a card page, the article, the deck, /notifications).
// BENCH_PROFILE_DIR keeps the .cpuprofile files for a closer look in a browser's DevTools.
import { writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startServer } from "#tests/support/server.ts";
import { ADMIN, CARD_PACK, pageTargets, prepare, seedContent, signIn } from "./pages-seed";
import { CACHE_MISS } from "./support";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const offers = Number(process.env.BENCH_OFFERS ?? 2_000);
const keepDir = process.env.BENCH_PROFILE_DIR;

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** A tiny Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(list[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)!(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
      pending.delete(message.id);
    }
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve) => pending.set(id, resolve as (result: unknown) => void));
    },
    close: () => socket.close(),
  };
}

/** The server bundle and its chunks, in `build/` or the BUILD_DIR the server was started with. */
const inBundle = (url: string) => /\/build[^/]*\/server\//.test(url);

/** Where a sampled frame's code lives. */
function categoryOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8 / native (program)";
    return `native: ${functionName || "(anonymous)"}`;
  }
  if (url.startsWith("wasm://")) return "PGlite (WebAssembly)";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) {
    const name = inModules[1];
    if (name === "react-dom" || name === "react") return "React (server render)";
    if (name === "react-router" || name.startsWith("@react-router")) return "React Router";
    if (name === "@electric-sql/pglite") return "PGlite (JS)";
    if (name === "pg" || name === "pg-protocol" || name === "pg-types" || name === "postgres-array") return "pg driver";
    if (name === "drizzle-orm") return "Drizzle";
    if (name === "compression") return "compression";
    if (name === "express" || name === "router" || name.startsWith("body-parser") || name === "send" || name === "finalhandler") return "Express";
    return `other package: ${name}`;
  }
  if (inBundle(url)) return "our bundle (loaders, view models, components)";
  if (url.startsWith("node:zlib") || url.includes("zlib")) return "compression (zlib)";
  if (url.startsWith("node:internal/streams") || url.startsWith("node:stream")) return "Node streams";
  if (url.startsWith("node:internal/webstreams")) return "Node web streams";
  if (url.startsWith("node:")) return `Node: ${url.replace(/^node:(internal\/)?/, "").split("/")[0]}`;
  return url;
}

/** ms per request by category, our bundle's top functions by self and inclusive time. */
function summarise(profile: Profile, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const categories = new Map<string, number>();
  const ownSelf = new Map<string, number>();
  const ownInclusive = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const category = categoryOf(node.callFrame);
    categories.set(category, (categories.get(category) ?? 0) + micros);
    if (category !== "idle") busy += micros;
    const label = (f: CallFrame) => `${f.functionName || "(anonymous)"}:${f.lineNumber + 1}`;
    if (inBundle(node.callFrame.url)) ownSelf.set(label(node.callFrame), (ownSelf.get(label(node.callFrame)) ?? 0) + micros);
    // Inclusive: each of our functions on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!inBundle(frame.url)) continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      ownInclusive.set(key, (ownInclusive.get(key) ?? 0) + micros);
    }
  }
  const perRequest = (micros: number) => micros / 1000 / Math.max(requests, 1);
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${perRequest(v).toFixed(2)} ms`);
  return {
    busyPerRequest: perRequest(busy),
    categories: [...categories.entries()].filter(([k]) => k !== "idle").sort((a, b) => b[1] - a[1]).map(([k, v]) => ({ category: k, ms: perRequest(v), share: v / busy })),
    topSelf: top(ownSelf, 12),
    topInclusive: top(ownInclusive, 16),
  };
}

const { targets, pgliteDir } = await pageTargets(process.env.BENCH_ONLY ?? "pglite");
for (const target of targets) {
  try {
    await prepare(target, pgliteDir, offers);
    const inspectPort = await freePort();
    const server = await startServer({
      ...target.env,
      LOG_LEVEL: "warn",
      ADMIN_EMAILS: ADMIN.email,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --inspect=127.0.0.1:${inspectPort}`.trim(),
    });
    const devtools = await inspector(inspectPort);
    try {
      const { article, deck, card } = await seedContent(server);
      const cookie = await signIn(server.url);
      const signedIn = { cookie: `${cookie}; bench=no-page-cache` };
      const all: [string, string, Record<string, string>][] = [
        ["/terms signed out (floor)", "/terms", CACHE_MISS],
        ["/terms signed in", "/terms", signedIn],
        ["/ signed out", "/", CACHE_MISS],
        ["/ signed in", "/", signedIn],
        ["/profile signed in", "/profile", signedIn],
        [`/cards?pack=${CARD_PACK} signed in`, `/cards?pack=${CARD_PACK}`, signedIn],
        ["/trades signed out", "/trades", CACHE_MISS],
        ["/trades signed in", "/trades", signedIn],
        ["/trades?view=matches signed in", "/trades?view=matches", signedIn],
        ["card page signed out", `/cards/${card}`, CACHE_MISS],
        ["card page signed in", `/cards/${card}`, signedIn],
        ["article signed in", `/articles/${article}`, signedIn],
        ["deck page signed in", `/deck-recipes/${deck}`, signedIn],
        ["/notifications signed in", "/notifications", signedIn],
      ];
      const wanted = process.env.BENCH_PAGES?.split(",");
      const cases = wanted ? all.filter(([name, p]) => wanted.includes(p.split("?")[0]) || p === "/terms" || wanted.some((w) => !w.startsWith("/") && name.startsWith(w))) : all;
      await devtools.send("Profiler.enable");
      await devtools.send("Profiler.setSamplingInterval", { interval: 250 });
      console.log(`[server mode: ${server.mode}] CPU profile per page on ${target.label}, ${connections} connections, ${seconds} s, accept-encoding gzip/br`);
      for (const [name, pathname, headers] of cases) {
        const url = `${server.url}${pathname}`;
        const requestHeaders = { ...headers, "accept-encoding": "gzip, deflate, br" };
        await autocannon({ url, connections: 4, duration: 1, headers: requestHeaders });
        await devtools.send("Profiler.start");
        const result = await autocannon({ url, connections, duration: seconds, headers: requestHeaders });
        const { profile } = await devtools.send<{ profile: Profile }>("Profiler.stop");
        if (keepDir) writeFileSync(path.join(keepDir, `${target.label}-${name.replace(/[^a-z0-9]+/gi, "_")}.cpuprofile`), JSON.stringify(profile));
        const requests = result.requests.total;
        const s = summarise(profile, requests);
        console.log(`\n## ${name} — ${requests} requests, ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; main thread busy ${s.busyPerRequest.toFixed(2)} ms per request`);
        for (const c of s.categories.filter((c) => c.share >= 0.01)) console.log(`  ${c.category.padEnd(48)} ${c.ms.toFixed(2).padStart(7)} ms  ${(c.share * 100).toFixed(0).padStart(3)} %`);
        console.log(`  our bundle, self:      ${s.topSelf.join(" · ")}`);
        console.log(`  our bundle, inclusive: ${s.topInclusive.join(" · ")}`);
      }
    } finally {
      devtools.close();
      await server.stop();
    }
  } finally {
    await target.cleanup();
  }
}
