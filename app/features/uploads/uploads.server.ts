import { randomBytes } from "node:crypto";
import { desc, inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { uploads } from "#app/db/schema/content.ts";
import { UploadError } from "./errors";
import { encodeImage, type EncodedImage } from "./image.server";
import { UPLOAD_FOLDERS, WIDE_FOLDERS, type UploadFolder } from "./rules";
import type { UploadStore } from "./storage.server";

import type { UploadedImage, UploadResult } from "./types";

export type { UploadedImage, UploadResult } from "./types";

export function parseUploadFolder(value: unknown): UploadFolder {
  if (value === null || value === undefined || value === "") return "images";
  if (typeof value === "string" && (UPLOAD_FOLDERS as readonly string[]).includes(value)) return value as UploadFolder;
  throw new UploadError("bad_folder");
}

/** docs/product-rules.md §7: `<folder>/<timestamp>-<random>`; the client's file name never reaches a path. */
function newKeyBase(folder: UploadFolder): string {
  return `${folder}/${Date.now()}-${randomBytes(9).toString("base64url")}`;
}

/**
 * Checks and re-encodes an uploaded image (image.server.ts), stores its file(s) and records
 * them. The files are written first and the rows in one transaction after; if recording fails,
 * the files just written are removed again, so nothing is left half-saved.
 */
export async function saveUpload(db: Db, store: UploadStore, input: { bytes: Buffer; folder: UploadFolder; userId: string | null }): Promise<UploadResult> {
  const wide = WIDE_FOLDERS.includes(input.folder);
  const { image, eyecatch } = await encodeImage(input.bytes, { eyecatch: wide });
  const base = newKeyBase(input.folder);
  const files: { key: string; image: EncodedImage }[] = [{ key: `${base}.webp`, image }];
  if (eyecatch) files.push({ key: `${base}-1200x630.webp`, image: eyecatch });

  const written: string[] = [];
  try {
    for (const file of files) {
      await store.put(file.key, file.image.data, file.image.contentType);
      written.push(file.key);
    }
    await db.transaction(async (tx) => {
      await tx.insert(uploads).values(
        files.map((file) => ({
          key: file.key,
          folder: input.folder,
          contentType: file.image.contentType,
          bytes: file.image.data.length,
          width: file.image.width,
          height: file.image.height,
          uploadedBy: input.userId,
        })),
      );
    });
  } catch (error) {
    await Promise.allSettled(written.map((key) => store.delete(key)));
    throw error;
  }
  const describe = (file: { key: string; image: EncodedImage }): UploadedImage => ({
    url: store.publicUrl(file.key),
    width: file.image.width,
    height: file.image.height,
  });
  return files.length > 1 ? { ...describe(files[0]), eyecatch: describe(files[1]) } : describe(files[0]);
}

export type RecentUpload = UploadedImage & { key: string; folder: string; bytes: number; createdAt: string };

/** The newest uploads first, for an admin to reuse. */
export async function listRecentUploads(db: Db, store: UploadStore, limit = 30): Promise<RecentUpload[]> {
  const rows = await db
    .select({ key: uploads.key, folder: uploads.folder, bytes: uploads.bytes, width: uploads.width, height: uploads.height, createdAt: uploads.createdAt })
    .from(uploads)
    .orderBy(desc(uploads.createdAt), desc(uploads.key))
    .limit(Math.min(Math.max(limit, 1), 100));
  return rows.map((row) => ({ ...row, url: store.publicUrl(row.key), createdAt: row.createdAt.toISOString() }));
}

/** Width and height of the hosted images among `urls` (for the formatter's <img> sizes). */
export async function hostedImageSizes(db: Db, store: UploadStore, urls: readonly string[]): Promise<Map<string, { width: number; height: number }>> {
  const keyToUrls = new Map<string, string[]>();
  for (const url of urls) {
    const key = store.keyOfUrl(url);
    if (key) keyToUrls.set(key, [...(keyToUrls.get(key) ?? []), url]);
  }
  const sizes = new Map<string, { width: number; height: number }>();
  if (keyToUrls.size === 0) return sizes;
  const rows = await db
    .select({ key: uploads.key, width: uploads.width, height: uploads.height })
    .from(uploads)
    .where(inArray(uploads.key, [...keyToUrls.keys()]));
  for (const row of rows) for (const url of keyToUrls.get(row.key) ?? []) sizes.set(url, { width: row.width, height: row.height });
  return sizes;
}
