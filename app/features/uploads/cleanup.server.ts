import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { uploads } from "#app/db/schema/content.ts";
import { UPLOAD_FOLDERS } from "./rules";

/** A stored file without its row is kept this long: a save may be between writing it and its row. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;
/** A `.partial` younger than this may be another instance's write in progress (a shared folder). */
export const PARTIAL_AGE_MS = 10 * 60 * 1000;

/** Only admin uploads have `uploads` rows; card art (`cards/`) and share images (`share/`) have none and are never orphans. */
const RECORDED_FOLDERS: ReadonlySet<string> = new Set(UPLOAD_FOLDERS);

/** stat that answers null for an entry that vanished or cannot be read, instead of stopping the scan. */
async function statOrNull(file: string) {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

/**
 * Start-up clean-up of the local upload folder: every `.partial` file older than a few minutes (a
 * write cut short by a crash) and, in the admin upload folders only, every image older than a day
 * that no `uploads` row names (the row's transaction failed after the file was written, and the
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
    if (!(await statOrNull(dir))?.isDirectory()) continue;
    const candidates: { key: string; file: string }[] = [];
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const info = name.endsWith(".partial") || name.endsWith(".webp") ? await statOrNull(file) : null;
      if (!info?.isFile()) continue;
      if (name.endsWith(".partial")) {
        if (now - info.mtimeMs <= PARTIAL_AGE_MS) continue;
        await rm(file, { force: true });
        removed.partial++;
      } else if (RECORDED_FOLDERS.has(folder) && now - info.mtimeMs > ORPHAN_AGE_MS) {
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
