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
});
