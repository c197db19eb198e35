// `npm run bench:pages`: every page kind rendered anew, against the lightest server-rendered page
// (/terms) of the same run and the same server — signed out past the page cache (a cookie keeps the
// request away from it) and signed in — at 20 and 50 connections, on PGlite and (when it answers)
// PostgreSQL. Prints req/s, p50, p99, the HTML bytes of one answer (uncompressed: autocannon asks
// for no encoding) and the ratio of req/s to /terms of the same run and the same sign-in state.
// The data is seeded through the services as the other benches do: a board of BENCH_OFFERS offers
// (default 2,000), a signed-in trader with three offers whose cards are popular (so マッチ has
// answers), 11 articles of which one has about 10,000 characters, and 5 public decks.
// Needs `npm run build`. Bounded: BENCH_SECONDS (default 5) per case, 127.0.0.1 only.
// BENCH_ONLY=pglite|postgres runs one database; BENCH_CONNECTIONS="20,50" the connection counts;
// BENCH_PAGES="/,/profile,article" only the pages whose path (before "?") is listed, or whose name begins with an entry that is not a path ("article", "deck", "card page").
// Beside req/s, each case shows the server process's CPU time per answer (user + system, read from
// /proc on Linux, PGlite included as it runs in the process; PostgreSQL's own work is not) and its
// ratio to /terms': on a machine shared with other work, CPU time per answer moves far less than
// req/s, which counts every moment the server waited for a core.
// BENCH_BUILDS (default "build") names build directories measured one after another on the same data
// (a build of the code before a change beside the current one: `BENCH_BUILDS=build-before,build`),
// each against its own /terms, then each page's ratios side by side.
// Aim (issue 26): every page ≥ 0.5× the /terms floor, p99 ≤ 4× p50 at 50 connections.
import { readFileSync } from "node:fs";
import { startServer } from "#tests/support/server.ts";
import { ADMIN, CARD_PACK, pageTargets, prepare, seedContent, signIn } from "./pages-seed";
import { CACHE_MISS, measure, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? "20,50").split(",").map(Number);
const offers = Number(process.env.BENCH_OFFERS ?? 2_000);
const only = process.env.BENCH_ONLY;
const pageFilter = process.env.BENCH_PAGES?.split(",");
const builds = (process.env.BENCH_BUILDS ?? "build").split(",").filter(Boolean);
type Row = Measurement & { bytes: number; ratio: number; state: "signed out" | "signed in"; connections: number; cpu: number | null; cpuRatio: number | null };

/** The process's CPU time so far (user + system) in ms, from /proc/<pid>/stat; null where there is none. */
function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields 14 and 15 (utime, stime, in clock ticks of 1/100 s) are the 12th and 13th after "pid (comm) ".
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The HTML of one answer, checked to be a 200 (a redirect or an error page would measure nothing). */
async function htmlBytes(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers, redirect: "manual" });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return body.byteLength;
}

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log("| page | state | conn. | req/s | p50 ms | p99 ms | p99/p50 | HTML KB | ×/terms req/s | CPU ms/answer | ×/terms CPU | errors |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.state} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${(r.p99 / Math.max(r.p50, 1)).toFixed(1)} | ${(r.bytes / 1024).toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.cpu?.toFixed(2) ?? "–"} | ${r.cpuRatio?.toFixed(2) ?? "–"} | ${r.errors + r.non2xx} |`);
  }
}

/** Each page's ratios to its build's /terms, build by build: before → after of a change, measured on the same data in one run. */
function printBuilds(label: string, byBuild: { build: string; rows: Row[] }[]): void {
  const names = byBuild.map((b) => b.build).join(" → ");
  console.log(`\n${label}: ${names}, each against its own /terms (req/s ratio; CPU ms per answer)`);
  console.log(`| page | state | conn. | ×/terms req/s (${names}) | CPU ms/answer (${names}) | HTML KB (${names}) |`);
  console.log("|---|---|---|---|---|---|");
  for (const first of byBuild[0].rows) {
    const same = byBuild.map((b) => b.rows.find((r) => r.name === first.name && r.state === first.state && r.connections === first.connections));
    const cell = (pick: (r: Row) => string) => same.map((r) => (r ? pick(r) : "–")).join(" → ");
    console.log(`| ${first.name} | ${first.state} | ${first.connections} | ${cell((r) => r.ratio.toFixed(2))} | ${cell((r) => r.cpu?.toFixed(2) ?? "–")} | ${cell((r) => (r.bytes / 1024).toFixed(1))} |`);
  }
}

const { targets, pgliteDir } = await pageTargets(only);

const verdicts: string[] = [];
for (const target of targets) {
  try {
    await prepare(target, pgliteDir, offers);
    let content: Awaited<ReturnType<typeof seedContent>> | undefined;
    const byBuild: { build: string; rows: Row[] }[] = [];
    for (const build of builds) {
      const server = await startServer({ ...target.env, LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN.email, BUILD_DIR: build });
      try {
        // The content once, through the first build's server: every build renders the same pages.
        content ??= await seedContent(server);
        const { article, deck, card } = content;
        const cookie = await signIn(server.url);
        // Signed in, the trader's cookie; signed out, a cookie that is not a session keeps the page
        // cache away (server/page-cache.ts), so both states render the page anew for each request.
        const states: [Row["state"], Record<string, string>][] = [
          ["signed out", CACHE_MISS],
          ["signed in", { cookie: `${cookie}; bench=no-page-cache` }],
        ];
        const pages: { name: string; path: string; signedInOnly?: boolean }[] = [
          { name: "/terms (floor)", path: "/terms" },
          { name: "/", path: "/" },
          { name: `/cards?pack=${CARD_PACK}`, path: `/cards?pack=${CARD_PACK}` },
          { name: "card page", path: `/cards/${card}` },
          { name: "/trades", path: "/trades" },
          { name: "マッチ", path: "/trades?view=matches", signedInOnly: true },
          { name: "/articles", path: "/articles" },
          { name: "article (10k chars)", path: `/articles/${article}` },
          { name: "/deck-recipes", path: "/deck-recipes" },
          { name: "deck page", path: `/deck-recipes/${deck}` },
          { name: "/profile", path: "/profile", signedInOnly: true },
          { name: "/notifications", path: "/notifications", signedInOnly: true },
        ].filter((p) => p.path === "/terms" || !pageFilter || pageFilter.includes(p.path.split("?")[0]) || pageFilter.some((f) => !f.startsWith("/") && p.name.startsWith(f)));
        const rows: Row[] = [];
        for (const [state, headers] of states) {
          const wanted = pages.filter((p) => state === "signed in" || !p.signedInOnly);
          const bytes = new Map<string, number>();
          for (const page of wanted) {
            bytes.set(page.path, await htmlBytes(`${server.url}${page.path}`, headers));
            await measure("warm-up", `${server.url}${page.path}`, { duration: 1, connections: 4, headers });
          }
          for (const connections of connectionCounts) {
            let floor = 0;
            let floorCpu: number | null = null;
            for (const page of wanted) {
              const cpuBefore = cpuMs(server.process.pid);
              const m = await measure(page.name, `${server.url}${page.path}`, { duration, connections, headers });
              const cpuAfter = cpuMs(server.process.pid);
              // CPU time per answer (the ×/terms column is the floor's over this page's: above 1 is cheaper).
              const cpu = cpuBefore !== null && cpuAfter !== null && m.requests > 0 ? (cpuAfter - cpuBefore) / m.requests : null;
              if (page.path === "/terms") [floor, floorCpu] = [m.rps, cpu];
              rows.push({ ...m, state, connections, bytes: bytes.get(page.path)!, ratio: m.rps / floor, cpu, cpuRatio: cpu && floorCpu ? floorCpu / cpu : null });
            }
          }
        }
        print(`[server mode: ${server.mode}] Pages on ${target.label}${builds.length > 1 ? `, build ${build}` : ""}, ${offers} offers — ${duration} s per case; ratio: req/s vs /terms of the same state and connections`, rows);
        byBuild.push({ build, rows });
        const under = rows.filter((r) => r.ratio < 0.5).map((r) => `${r.name} (${r.state}, ${r.connections}) ${r.ratio.toFixed(2)}×`);
        const starving = rows.filter((r) => r.connections >= 50 && r.p99 > 4 * Math.max(r.p50, 1)).map((r) => `${r.name} (${r.state}) p99/p50 ${(r.p99 / Math.max(r.p50, 1)).toFixed(1)}`);
        const label = builds.length > 1 ? `${target.label}, ${build}` : target.label;
        verdicts.push(`${label}: below 0.5× /terms: ${under.length ? under.join(", ") : "none"}`);
        verdicts.push(`${label}: p99 > 4× p50 at 50 connections: ${starving.length ? starving.join(", ") : "none"}`);
      } finally {
        await server.stop();
      }
    }
    if (byBuild.length > 1) printBuilds(target.label, byBuild);
  } finally {
    await target.cleanup();
  }
}

console.log(`\nAim (issue 26): every page ≥ 0.5× /terms, p99 ≤ 4× p50 at 50 connections\n${verdicts.map((v) => `- ${v}`).join("\n")}`);
