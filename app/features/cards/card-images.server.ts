import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, isNotNull } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "#app/db/client.server.ts";
import { cards } from "#app/db/schema/index.ts";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { ART_SIZES } from "#app/lib/card-face.ts";
import { invalidateCardIndex } from "./card-index.server";
import { decodeToken } from "./romanisation";

export type CardImagesSummary = {
  /** Catalogue cards whose image file was in the folder. */
  found: number;
  /** Catalogue cards whose image file was not. */
  missing: number;
  /** Files that could not be read or re-encoded (listed in `failures`). */
  failed: number;
  /** Cards whose art was (re-)encoded and stored this run. */
  stored: number;
  /** Cards whose stored art already came from the same file. */
  unchanged: number;
  failures: { cardId: string; file: string; reason: string }[];
};

export type CardImagesProgress = { done: number; total: number; cardId: string; outcome: "stored" | "unchanged" | "missing" | "failed" };

/** Every file under `folder`, by its path relative to the folder (forward slashes). */
async function listFiles(folder: string): Promise<Map<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(folder, full).split(path.sep).join("/"), full);
  }
  return files;
}

/**
 * The operator's file for a card: by the catalogue's image file name anywhere in the folder
 * (as published, or with its %-signs decoded), else the package's `cards-by-set/<set>/<n>.webp`.
 */
function fileForCard(card: { imageFile: string; setCode: string | null; number: number | null }, byName: Map<string, string>, byPath: Map<string, string>): string | undefined {
  return (
    byName.get(card.imageFile) ??
    byName.get(decodeToken(card.imageFile)) ??
    (card.setCode && card.number !== null
      ? (byPath.get(`cards-by-set/${card.setCode}/${card.number}.webp`) ?? byPath.get(`${card.setCode}/${card.number}.webp`))
      : undefined)
  );
}

/**
 * Loads the operator's card images into the site's one upload store (the local folder or the
 * S3 bucket, as configured): each catalogue card's file is re-encoded to WebP in two sizes
 * (grid thumbnail and full) under `cards/<card id>-<hash of the file>-{thumb,full}.webp`, and
 * the card points at their public URL prefix (`storedImage`). The card is pointed at the art
 * only after both files are stored, and the key carries a hash of the source file: a second run
 * with the same files stores nothing, a changed file replaces the art. A file that fails is
 * reported and leaves its card as it was.
 */
export async function loadCardImages(
  db: Db,
  folder: string,
  store: UploadStore,
  onProgress: (progress: CardImagesProgress) => void = () => {},
): Promise<CardImagesSummary> {
  const byPath = await listFiles(folder);
  const byName = new Map<string, string>();
  for (const [relative, full] of byPath) byName.set(path.posix.basename(relative), full);
  const rows = await db
    .select({ id: cards.id, imageFile: cards.imageFile, setCode: cards.setCode, number: cards.number, storedImage: cards.storedImage })
    .from(cards)
    .where(isNotNull(cards.imageFile))
    .orderBy(cards.id);
  const summary: CardImagesSummary = { found: 0, missing: 0, failed: 0, stored: 0, unchanged: 0, failures: [] };
  let done = 0;
  for (const row of rows) {
    done++;
    const file = fileForCard({ imageFile: row.imageFile!, setCode: row.setCode, number: row.number }, byName, byPath);
    if (!file) {
      summary.missing++;
      onProgress({ done, total: rows.length, cardId: row.id, outcome: "missing" });
      continue;
    }
    summary.found++;
    try {
      const source = await readFile(file);
      const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
      const base = `cards/${row.id}-${hash}`;
      const url = store.publicUrl(base);
      if (row.storedImage === url) {
        summary.unchanged++;
        onProgress({ done, total: rows.length, cardId: row.id, outcome: "unchanged" });
        continue;
      }
      // Re-encoding strips metadata and anything that is not the picture.
      const [thumb, full] = await Promise.all(
        [ART_SIZES.thumb, ART_SIZES.full].map((size) =>
          sharp(source, { failOn: "error" }).rotate().resize(size.width, size.height, { fit: "cover" }).webp({ quality: 82 }).toBuffer(),
        ),
      );
      await store.put(`${base}-thumb.webp`, thumb, "image/webp");
      await store.put(`${base}-full.webp`, full, "image/webp");
      // Only once both files are stored does the card point at them.
      await db.update(cards).set({ storedImage: url }).where(eq(cards.id, row.id));
      summary.stored++;
      onProgress({ done, total: rows.length, cardId: row.id, outcome: "stored" });
    } catch (error) {
      summary.failed++;
      summary.failures.push({ cardId: row.id, file, reason: error instanceof Error ? error.message : String(error) });
      onProgress({ done, total: rows.length, cardId: row.id, outcome: "failed" });
    }
  }
  if (summary.stored) invalidateCardIndex(db);
  return summary;
}
