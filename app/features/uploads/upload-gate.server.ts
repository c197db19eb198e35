import { availableParallelism } from "node:os";
import sharp from "sharp";
import type { Db } from "#app/db/client.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { createWorkPool, type PoolPlace, type WorkPool } from "#app/lib/work-pool.server.ts";
import { UploadError } from "./errors";
import { UPLOADS_PER_HOUR, UPLOADS_PER_MINUTE } from "./rules";

/**
 * Decoding a 20-megapixel photo takes a core and ~100 MB for a moment. Image work runs in one
 * pool per process: one task per core, leaving one core for page answers (at least one task),
 * and a short line behind them; an upload past that is refused with 503 before its body is read.
 */
export const IMAGE_WORK_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism() - 1));
export const IMAGE_WORK_WAITING = IMAGE_WORK_CONCURRENCY * 3;

// The pool decides how many images are worked on at once; libvips' own thread per core for each
// image would multiply that (and every thread keeps its own malloc arena), and its operation cache
// (50 MB by default) holds decoded pixels of uploads that are never read twice.
sharp.concurrency(1);
sharp.cache(false);

const uploadsPerMinute = databaseLimit({ name: "upload", max: UPLOADS_PER_MINUTE, window: "minute" });
const uploadsPerHour = databaseLimit({ name: "upload", max: UPLOADS_PER_HOUR, window: "hour" });

let pool: WorkPool = createWorkPool({ concurrency: IMAGE_WORK_CONCURRENCY, maxWaiting: IMAGE_WORK_WAITING });

/** Tests size the pool themselves (a full pool must be reachable without 16 big images). */
export function resizeImageWorkPool(concurrency: number, maxWaiting: number): WorkPool {
  pool = createWorkPool({ concurrency, maxWaiting });
  return pool;
}

/**
 * Lets one upload of `userId` in: counts it against the per-admin limits (429 past them, in the
 * project's rate-limit table, so the limits hold across instances) and takes a place in the image
 * pool (503 when full). The caller runs its image work with `place.run` or gives the place back
 * with `place.leave()`.
 */
export async function admitUpload(db: Db, userId: string): Promise<PoolPlace> {
  const over = await db.transaction(async (tx) => {
    // Both windows count every upload (no short-circuit), as before.
    const [minute, hour] = [await uploadsPerMinute.take(userId, tx), await uploadsPerHour.take(userId, tx)];
    return !minute || !hour;
  });
  if (over) throw new UploadError("rate_limited");
  const place = pool.enter();
  if (!place) throw new UploadError("busy");
  return place;
}
