import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";

// Only meaningful for the embedded database; the PostgreSQL project runs it too (it opens PGlite itself).
describe("the embedded database folder", () => {
  it("refuses a second opener while the first holds it, and frees it on close", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "torepoke-lock-")), "db");
    const first = await openDatabase({ kind: "pglite", dataDir });
    // Another live process holds it (our parent stands in for one).
    writeFileSync(`${dataDir}.lock`, String(process.ppid));
    await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toThrow(/in use by another process/);
    writeFileSync(`${dataDir}.lock`, String(process.pid));
    await first.close();
    const again = await openDatabase({ kind: "pglite", dataDir });
    await again.ping();
    await again.close();
  });

  it("takes over a lock left by a process that no longer exists", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "torepoke-lock-")), "db");
    writeFileSync(`${dataDir}.lock`, "2147483646");
    const database = await openDatabase({ kind: "pglite", dataDir });
    await database.ping();
    await database.close();
  });
});
