import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Env, S3Config } from "#app/lib/env.server.ts";

/** Uploaded files are named once and never change: caches may keep them forever. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** Where the local driver's files are served from (server/http.ts). */
export const LOCAL_UPLOADS_PATH = "/uploads";

/**
 * The one interface in front of wherever uploads live (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"): the local folder by
 * default, an S3-compatible bucket at scale. Keys are `<folder>/<name>.webp`, chosen by the
 * server; pages only ever see `publicUrl(key)`.
 */
export type UploadStore = {
  kind: "local" | "s3";
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** A stored file's bytes, or null when there is none (generated files check before rendering again). */
  get(key: string): Promise<Buffer | null>;
  publicUrl(key: string): string;
  /** The key of one of this store's public URLs (absolute or site-relative), else null. */
  keyOfUrl(url: string): string | null;
};

/** A key is `<folder>/<file>` of plain characters; nothing a path could escape with. */
const KEY = /^[a-z0-9-]{1,32}\/[A-Za-z0-9._-]{1,128}$/;

function checkKey(key: string): void {
  if (!KEY.test(key) || key.includes("..")) throw new Error(`invalid upload key: ${key}`);
}

function keyAfter(prefix: string, url: string): string | null {
  if (!url.startsWith(`${prefix}/`)) return null;
  const key = url.slice(prefix.length + 1);
  return KEY.test(key) && !key.includes("..") ? key : null;
}

/** `DATA_DIR/uploads/<key>`, written to a temporary name first so a reader never sees half a file. */
export function createLocalStore(root: string, siteUrl: string): UploadStore {
  return {
    kind: "local",
    async put(key, data) {
      checkKey(key);
      const file = path.join(root, key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.partial`;
      try {
        await writeFile(temporary, data, { flag: "wx" });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async delete(key) {
      checkKey(key);
      await rm(path.join(root, key), { force: true });
    },
    async get(key) {
      checkKey(key);
      try {
        return await readFile(path.join(root, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    publicUrl: (key) => `${LOCAL_UPLOADS_PATH}/${key}`,
    keyOfUrl: (url) => keyAfter(LOCAL_UPLOADS_PATH, url.startsWith(siteUrl) ? url.slice(siteUrl.length) : url),
  };
}

/** Any S3-compatible bucket through the official AWS SDK; files are public, immutable WebP. */
export function createS3Store(config: S3Config): UploadStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // MinIO, R2 and friends behind a custom endpoint answer path-style requests.
    forcePathStyle: Boolean(config.endpoint),
    // Not every S3-compatible server knows the SDK's newer default checksums; send them only
    // where the S3 API requires them.
    ...(config.endpoint ? { requestChecksumCalculation: "WHEN_REQUIRED" as const, responseChecksumValidation: "WHEN_REQUIRED" as const } : {}),
    credentials: config.credentials,
  });
  return {
    kind: "s3",
    async put(key, data, contentType) {
      checkKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: key,
          Body: data,
          ContentType: contentType,
          ContentLength: data.length,
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
      );
    },
    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    async get(key) {
      checkKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    publicUrl: (key) => `${config.publicUrl}/${key}`,
    keyOfUrl: (url) => keyAfter(config.publicUrl, url),
  };
}

const stores = new WeakMap<Env, UploadStore>();

/** The store configuration asks for: S3 when S3_BUCKET is set, else DATA_DIR/uploads. */
export function uploadStore(env: Env): UploadStore {
  let store = stores.get(env);
  if (!store) {
    store = env.s3 ? createS3Store(env.s3) : createLocalStore(localUploadsDir(env), env.siteUrl);
    stores.set(env, store);
  }
  return store;
}

export function localUploadsDir(env: Pick<Env, "dataDir">): string {
  return path.join(env.dataDir, "uploads");
}
