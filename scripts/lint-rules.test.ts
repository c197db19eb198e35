import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The lint rules that keep the code's shape (eslint.config.js), shown failing on planted code.
const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function rulesBroken(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe("lint rules", () => {
  it("refuses console in server code (services, server/, entry.server, routes) but lets components report in the browser", async () => {
    const code = 'export function f(): void {\n  console.error("failed");\n}\n';
    for (const file of ["app/features/trades/planted.server.ts", "server/planted.ts", "app/entry.server.tsx", "app/routes/api.planted.ts", "app/routes/planted.tsx"]) {
      expect(await rulesBroken(code, file), file).toContain("no-console");
    }
    expect(await rulesBroken(code, "app/features/uploads/components/planted.tsx")).not.toContain("no-console");
  }, 60_000);

  it("refuses an import cycle between modules (type-only imports aside)", async () => {
    // Files on disk: the cycle rule follows imports through the resolver.
    const dir = path.join(root, "app/features", `zz-planted-${randomBytes(4).toString("hex")}`);
    mkdirSync(dir);
    try {
      writeFileSync(path.join(dir, "a.server.ts"), 'import { b } from "./b.server";\nexport const a = (): number => b() + 1;\n');
      writeFileSync(path.join(dir, "b.server.ts"), 'import { a } from "./a.server";\nexport const b = (): number => a() - 1;\n');
      writeFileSync(path.join(dir, "c.server.ts"), 'import type { D } from "./d.server";\nexport type C = { d?: D };\n');
      writeFileSync(path.join(dir, "d.server.ts"), 'import type { C } from "./c.server";\nexport type D = { c?: C };\n');
      const results = await eslint.lintFiles([dir]);
      const cycles = (name: string) => results.find((r) => r.filePath.endsWith(name))!.messages.filter((m) => m.ruleId === "import-x/no-cycle");
      expect(cycles("a.server.ts")).toHaveLength(1);
      expect(cycles("b.server.ts")).toHaveLength(1);
      expect(cycles("c.server.ts")).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses an import cycle through root imports too", async () => {
    const name = `zz-planted-${randomBytes(4).toString("hex")}`;
    const dir = path.join(root, "app/features", name);
    mkdirSync(dir);
    try {
      writeFileSync(path.join(dir, "a.server.ts"), `import { b } from "#app/features/${name}/b.server.ts";\nexport const a = (): number => b() + 1;\n`);
      writeFileSync(path.join(dir, "b.server.ts"), `import { a } from "#app/features/${name}/a.server.ts";\nexport const b = (): number => a() - 1;\n`);
      const results = await eslint.lintFiles([dir]);
      for (const file of ["a.server.ts", "b.server.ts"]) {
        expect(results.find((r) => r.filePath.endsWith(file))!.messages.filter((m) => m.ruleId === "import-x/no-cycle"), file).toHaveLength(1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a parent-relative import, or one into a folder below, in the app and the server: modules are named from the root", async () => {
    expect(await rulesBroken('import { cardName } from "../../lib/card-name";\nexport const f = cardName;\n', "app/features/trades/planted.ts")).toContain("no-restricted-imports");
    expect(await rulesBroken('import { cardName } from "../app/lib/card-name";\nexport const f = cardName;\n', "server/planted.ts")).toContain("no-restricted-imports");
    expect(await rulesBroken('export const load = () => import("../lib/card-name");\n', "app/routes/planted.tsx")).toContain("no-restricted-syntax");
    expect(await rulesBroken('import { cardName } from "./lib/card-name.ts";\nexport const f = cardName;\n', "app/planted.ts")).toContain("no-restricted-imports");
    expect(await rulesBroken('import { cardName } from "#app/lib/card-name.ts";\nexport const f = cardName;\n', "app/features/trades/planted.ts")).not.toContain("no-restricted-imports");
    // A module in the same folder, and a route's generated types, are named from where they are.
    expect(await rulesBroken('import { MAX_OPEN_OFFERS } from "./rules.ts";\nexport const f = MAX_OPEN_OFFERS;\n', "app/features/trades/planted.ts")).not.toContain("no-restricted-imports");
    expect(await rulesBroken('import type { Route } from "./+types/terms";\nexport type R = Route.MetaArgs;\n', "app/routes/planted.tsx")).not.toContain("no-restricted-imports");
  }, 60_000);

  it("refuses another feature's internals from a feature, the site shell and the server", async () => {
    const internal = 'import { useChatRoom } from "#app/features/chat/use-chat-room.ts";\nexport const f = useChatRoom;\n';
    for (const file of ["app/features/trades/planted.ts", "app/features/trades/components/planted.tsx", "app/components/layout/planted.tsx", "app/pages/planted.server.ts", "server/planted.ts"]) {
      expect(await rulesBroken(internal, file), file).toContain("no-restricted-imports");
    }
    // A feature's own modules, and another feature's public modules, are fine.
    expect(await rulesBroken(internal, "app/features/chat/components/planted.tsx")).not.toContain("no-restricted-imports");
    expect(await rulesBroken('import { ChatError } from "#app/features/chat/errors.ts";\nexport const e = ChatError;\n', "server/planted.ts")).not.toContain("no-restricted-imports");
    expect(await rulesBroken('import { deckShareModel } from "#app/features/share/share.server.tsx";\nexport const s = deckShareModel;\n', "app/pages/planted.server.ts")).not.toContain("no-restricted-imports");
  }, 60_000);

  it("refuses another feature's internals loaded through import() as well, from the shell, a feature and the server", async () => {
    const lazy = 'export const load = () => import("#app/features/chat/send-queue.ts");\n';
    for (const file of ["app/components/layout/planted.tsx", "app/features/trades/planted.ts", "server/planted.ts", "app/lib/planted.ts"]) {
      expect(await rulesBroken(lazy, file), file).toContain("no-restricted-syntax");
    }
    expect(await rulesBroken('export const load = () => import("#app/routes/trades.tsx");\n', "app/components/layout/planted.tsx")).toContain("no-restricted-syntax");
    // A feature's public modules (its log-out effects, a component) may still be loaded on demand.
    expect(await rulesBroken('export const load = () => import("#app/features/chat/log-out.ts");\n', "app/components/layout/planted.tsx")).not.toContain("no-restricted-syntax");
    expect(await rulesBroken('export const load = () => import("#app/features/chat/components/unread-badge.tsx");\n', "app/components/layout/planted.tsx")).not.toContain("no-restricted-syntax");
  }, 60_000);
});
