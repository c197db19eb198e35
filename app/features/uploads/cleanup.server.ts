import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { uploads } from "../../db/schema/content";

/** A stored file without its row is kept this long: a save may be between writing it and its row. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Start-up clean-up of the local upload folder: every `.partial` file (a write cut short by a
 * crash: nothing else writes before the server listens) and every image older than a day that
 * no `uploads` row names (the row's transaction failed after the file was written, and the
 * process died before it could remove the file). Answers what it removed.
 */
export async function cleanLocalUploads(db: Db, root: string, now = Date.now()): Promise<{ partial: number; orphans: number }> {
  const removed = { partial: 0, orphans: 0 };
  let folders: string[];
  try {
    folders = await readdir(root);
  } catch {
    return removed; // no uploads yet
  }
  for (const folder of folders) {
    const dir = path.join(root, folder);
    if (!(await stat(dir)).isDirectory()) continue;
    const candidates: { key: string; file: string }[] = [];
    for (const name of await readdir(dir)) {
      const file = path.join(dir, name);
      if (name.endsWith(".partial")) {
        await rm(file, { force: true });
        removed.partial++;
      } else if (name.endsWith(".webp") && now - (await stat(file)).mtimeMs > ORPHAN_AGE_MS) {
        candidates.push({ key: `${folder}/${name}`, file });
      }
    }
    for (let i = 0; i < candidates.length; i += 500) {
      const batch = candidates.slice(i, i + 500);
      const known = new Set((await db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.key, batch.map((c) => c.key)))).map((r) => r.key));
      for (const candidate of batch) {
        if (known.has(candidate.key)) continue;
        await rm(candidate.file, { force: true });
        removed.orphans++;
      }
    }
  }
  return removed;
}
