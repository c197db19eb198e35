import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where card art re-encoded by `cards:images` is kept: the site's upload storage, behind a
 * small interface so the same loader writes to the local folder or an object store.
 */
export interface CardArtStore {
  /** Stores `body` under `key` (a relative path such as `cards/A1-001-9f3a…-thumb.webp`). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The public URL the pages use for `key`. */
  url(key: string): string;
}

/** Uploads in `DATA_DIR/uploads`, served by the HTTP server under `/uploads/`. */
export function localCardArtStore(uploadsDir: string, publicPath = "/uploads"): CardArtStore {
  const fileOf = (key: string) => {
    const file = path.resolve(uploadsDir, key);
    if (!file.startsWith(path.resolve(uploadsDir) + path.sep)) throw new Error(`Key outside the upload folder: ${key}`);
    return file;
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write beside and rename: a reader never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, body);
      await rename(partial, file);
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
    url: (key) => `${publicPath}/${key.split("/").map(encodeURIComponent).join("/")}`,
  };
}
