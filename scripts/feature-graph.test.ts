import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Features depend on each other one way: a pair that imports both ways (at run time; type-only
// imports aside) is a knot no lint rule sees file by file. Two features that need each other's
// data meet through a registration at start-up instead (app/registrations.server.ts). No pair is
// left; a listed one would be known debt (the test fails on a new pair, and on a listed one that
// is gone, so the list only shrinks).
const KNOWN_TWO_WAY_PAIRS: string[] = [];

const root = path.resolve(import.meta.dirname, "../app/features");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** feature → the features it imports at run time. */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(root)) {
    const feature = path.relative(root, file).split(path.sep)[0];
    const uses = graph.get(feature) ?? new Set<string>();
    graph.set(feature, uses);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+"((?:\.|#app\/)[^"]+)";/gms)) {
      if (match[1]) continue;
      const spec = match[2].startsWith("#app/") ? path.join(root, "..", match[2].slice("#app/".length)) : path.resolve(path.dirname(file), match[2]);
      const target = path.relative(root, spec);
      const other = target.split(path.sep)[0];
      if (!target.startsWith("..") && other !== feature) uses.add(other);
    }
  }
  return graph;
}

describe("features", () => {
  it("import each other one way only, apart from the listed pairs", () => {
    const graph = featureGraph();
    const pairs = new Set<string>();
    for (const [a, uses] of graph) for (const b of uses) if (graph.get(b)?.has(a)) pairs.add([a, b].sort().join(" <-> "));
    expect([...pairs].sort()).toEqual(KNOWN_TWO_WAY_PAIRS);
  });
});
