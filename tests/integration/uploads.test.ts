import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploads } from "#app/db/schema/content.ts";
import { users } from "#app/db/schema/users.ts";
import { UPLOAD_MAX_BYTES, UPLOADS_PER_MINUTE } from "#app/features/uploads/rules.ts";
import { cleanLocalUploads, ORPHAN_AGE_MS, PARTIAL_AGE_MS } from "#app/features/uploads/cleanup.server.ts";
import { IMAGE_WORK_CONCURRENCY, IMAGE_WORK_WAITING, resizeImageWorkPool } from "#app/features/uploads/upload-gate.server.ts";
import { createLocalStore, createS3Store, type UploadStore } from "#app/features/uploads/storage.server.ts";
import { hostedImageSizes, listRecentUploads, saveUpload } from "#app/features/uploads/uploads.server.ts";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action, loader } from "#app/routes/api.admin.uploads.ts";
import { startS3Server, type S3TestServer } from "#tests/support/s3-server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "http://torepoke.test";
let database: TestDatabase;
let dataDir: string;
let env: Env;
let context: AppLoadContext;
let adminCookie: string;
let userCookie: string;
let adminId: string;

async function signUp(): Promise<{ cookie: string; email: string }> {
  const email = `u-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.4.0.1" },
      body: JSON.stringify({ email, password: "kouKan-pass-2026", name: "管理" }),
    }),
  );
  expect(res.status).toBe(200);
  return { email, cookie: res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="))!.split(";")[0] };
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-uploads-"));
  env = loadEnv({ SITE_URL: SITE, DATA_DIR: dataDir, BETTER_AUTH_SECRET: "u".repeat(40), AUTH_RATE_LIMIT_MAX: "1000" });
  context = { db: database.db, env, cspNonce: "n" };
  const admin = await signUp();
  await database.db.update(users).set({ role: "admin" }).where(eq(users.email, admin.email));
  adminCookie = admin.cookie;
  adminId = (await database.db.select({ id: users.id }).from(users).where(eq(users.email, admin.email)))[0].id;
  userCookie = (await signUp()).cookie;
});
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();

function upload(body: BodyInit, options: { cookie?: string; headers?: Record<string, string> } = {}) {
  const request = new Request(`${SITE}/api/admin/uploads`, {
    method: "POST",
    headers: { ...(options.cookie === undefined ? { cookie: adminCookie } : options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    body,
    // @ts-expect-error Node's fetch needs duplex for a stream body
    duplex: "half",
  });
  // Route guards throw their 401/403 Response; React Router would send it as it is.
  return (action({ request, context, params: {} } as never) as Promise<Response>).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });
}

function form(bytes: Buffer, fields: Record<string, string> = {}, filename = "photo.jpg", type = "image/jpeg"): FormData {
  const data = new FormData();
  data.set("file", new File([new Uint8Array(bytes)], filename, { type }));
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("POST /api/admin/uploads (local store)", () => {
  it("re-encodes a JPEG to WebP at most 1600 px wide, stores it under a generated name and records it", async () => {
    const res = await upload(form(await jpeg(3200, 1000), {}, "../../etc/passwd.jpg"));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; width: number; height: number };
    expect(body).toMatchObject({ width: 1600, height: 500 });
    expect(body.url).toMatch(/^\/uploads\/images\/\d{13}-[A-Za-z0-9_-]{12}\.webp$/);
    const key = body.url.slice("/uploads/".length);
    const file = readFileSync(path.join(dataDir, "uploads", key));
    const meta = await sharp(file).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1600, height: 500 });
    const [row] = await database.db.select().from(uploads).where(eq(uploads.key, key));
    expect(row).toMatchObject({ folder: "images", contentType: "image/webp", bytes: file.length, width: 1600, height: 500, uploadedBy: adminId });
  });

  it("applies the EXIF orientation and strips EXIF and GPS metadata", async () => {
    const withExif = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret-owner", ImageDescription: "at home" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 40/1 0/1" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const res = await upload(form(withExif));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; width: number; height: number };
    // Orientation 6 = rotate 90°: a 300×100 photo is shown 100×300.
    expect(body).toMatchObject({ width: 100, height: 300 });
    const file = readFileSync(path.join(dataDir, body.url.replace(/^\/uploads\//, "uploads/")));
    const meta = await sharp(file).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(file.includes(Buffer.from("secret-owner"))).toBe(false);
  });

  it("accepts PNG, WebP, GIF and AVIF, keeping an animated GIF animated", async () => {
    const base = () => sharp({ create: { width: 64, height: 48, channels: 4, background: "#22aa55" } });
    for (const bytes of [await base().png().toBuffer(), await base().webp().toBuffer(), await base().gif().toBuffer(), await base().avif().toBuffer()]) {
      const res = await upload(form(bytes, {}, "x.bin", "application/octet-stream"));
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ width: 64, height: 48 });
    }
    const frame = (colour: string) => sharp({ create: { width: 40, height: 30, channels: 3, background: colour } }).png().toBuffer();
    const gif = await sharp([await frame("#ff0000"), await frame("#00ff00"), await frame("#0000ff")], { join: { animated: true } }).gif().toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const res = await upload(form(gif, {}, "anim.gif", "image/gif"));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; width: number; height: number };
    expect(body).toMatchObject({ width: 40, height: 30 });
    const stored = await sharp(readFileSync(path.join(dataDir, "uploads", body.url.slice("/uploads/".length)))).metadata();
    expect(stored).toMatchObject({ format: "webp", pages: 3 });
  });

  it("adds a 1200×630 cut for eyecatches and the OG image", async () => {
    const res = await upload(form(await jpeg(2000, 1500), { folder: "eyecatches" }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; eyecatch: { url: string; width: number; height: number } };
    expect(body.url).toMatch(/^\/uploads\/eyecatches\/\d+-[\w-]+\.webp$/);
    expect(body.eyecatch).toEqual({ url: body.url.replace(/\.webp$/, "-1200x630.webp"), width: 1200, height: 630 });
    const meta = await sharp(readFileSync(path.join(dataDir, "uploads", body.eyecatch.url.slice("/uploads/".length)))).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1200, height: 630 });
  });

  it("refuses SVG, HTML and other files by their bytes with 415 and a Japanese message", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    const pdf = Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\n");
    for (const [bytes, name, type] of [[svg, "x.svg", "image/svg+xml"], [html, "x.png", "image/png"], [pdf, "x.jpg", "image/jpeg"]] as const) {
      const res = await upload(form(bytes, {}, name, type));
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: "この形式のファイルはアップロードできません（JPEG・PNG・WebP・GIF・AVIFの画像のみ）", code: "unsupported_type" });
    }
  });

  it("turns a GIF/HTML polyglot into plain pixels", async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).gif().toBuffer();
    const polyglot = Buffer.concat([gif, Buffer.from("<script>alert(document.cookie)</script>")]);
    const res = await upload(form(polyglot, {}, "x.gif", "image/gif"));
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    const stored = readFileSync(path.join(dataDir, "uploads", url.slice("/uploads/".length)));
    expect(stored.includes(Buffer.from("<script"))).toBe(false);
  });

  it("refuses a decompression bomb from its header, before decoding it", async () => {
    // A real 16×16 PNG whose header claims 30000×30000 pixels (900 MP).
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#fff" } }).png().toBuffer();
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(30_000, 16);
    bomb.writeUInt32BE(30_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)) >>> 0, 29);
    const res = await upload(form(bomb, {}, "bomb.png", "image/png"));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe("画像の画素数が大きすぎます（4000万画素まで）");
  });

  it("refuses a body over 10 MB with 413 while it streams, without reading it all", async () => {
    const chunk = new Uint8Array(256 * 1024).fill(65);
    const total = UPLOAD_MAX_BYTES * 3;
    let sent = 0;
    const boundary = "----torepoke";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await upload(stream, { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "画像ファイルが大きすぎます（10MBまで）", code: "too_large" });
    expect(sent).toBeLessThan(UPLOAD_MAX_BYTES + 2 * 1024 * 1024);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const res = await upload("x", { headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(UPLOAD_MAX_BYTES * 2) } });
    expect(res.status).toBe(413);
  });

  it("answers 400 without a file or with an unknown folder", async () => {
    const empty = new FormData();
    empty.set("folder", "images");
    expect((await upload(empty)).status).toBe(400);
    const res = await upload(form(await jpeg(10, 10), { folder: "../secrets" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "保存先フォルダが正しくありません", code: "bad_folder" });
    // A body that cannot carry a file at all is the uploads' own "no file", not a generic format error.
    const json = await upload(JSON.stringify({ file: "x" }), { headers: { "content-type": "application/json" } });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ error: "画像ファイルを選択してください", code: "no_file" });
  });

  it("answers 401 signed out and 403 for a user who is not an admin, storing nothing", async () => {
    const before = (await database.db.select({ key: uploads.key }).from(uploads)).length;
    expect((await upload(form(await jpeg(10, 10)), { cookie: "" })).status).toBe(401);
    const forbidden = await upload(form(await jpeg(10, 10)), { cookie: userCookie });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: "管理者権限がありません。", code: "admin_required" });
    expect((await database.db.select({ key: uploads.key }).from(uploads)).length).toBe(before);
  });

  it("lists recent uploads newest first and knows the size of hosted images", async () => {
    const store = createLocalStore(path.join(dataDir, "uploads"), SITE);
    const saved = await saveUpload(database.db, store, { bytes: await jpeg(120, 80), folder: "thumbnails", userId: null });
    const recent = await listRecentUploads(database.db, store, 5);
    expect(recent[0]).toMatchObject({ url: saved.url, width: 120, height: 80, folder: "thumbnails" });
    const sizes = await hostedImageSizes(database.db, store, [saved.url, `${SITE}${saved.url}`, "https://elsewhere.example/x.webp"]);
    expect(sizes.get(saved.url)).toEqual({ width: 120, height: 80 });
    expect(sizes.get(`${SITE}${saved.url}`)).toEqual({ width: 120, height: 80 });
    expect(sizes.has("https://elsewhere.example/x.webp")).toBe(false);
  });

  it("GET /api/admin/uploads lists the newest uploads for an admin only", async () => {
    const created = (await (await upload(form(await jpeg(30, 20), { folder: "thumbnails" }))).json()) as { url: string };
    const list = (cookie: string) =>
      (loader({ request: new Request(`${SITE}/api/admin/uploads?limit=3`, { headers: cookie ? { cookie } : {} }), context, params: {} } as never) as Promise<Response>).catch((thrown: unknown) => {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      });
    const res = await list(adminCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const { items } = (await res.json()) as { items: { url: string; width: number; height: number; folder: string }[] };
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ url: created.url, width: 30, height: 20, folder: "thumbnails" });
    expect((await list(userCookie)).status).toBe(403);
    expect((await list("")).status).toBe(401);
  });

  it("removes the files again when recording the upload fails", async () => {
    const store = createLocalStore(path.join(dataDir, "uploads"), SITE);
    const written: string[] = [];
    const spying: UploadStore = { ...store, put: async (key, data, type) => (written.push(key), store.put(key, data, type)) };
    // A user id that does not exist breaks the foreign key: the insert fails after the files were written.
    await expect(saveUpload(database.db, spying, { bytes: await jpeg(50, 50), folder: "og", userId: "no-such-user" })).rejects.toThrow();
    expect(written).toHaveLength(2);
    for (const key of written) expect(() => readFileSync(path.join(dataDir, "uploads", key))).toThrow();
    expect(await database.db.select().from(uploads).where(eq(uploads.key, written[0]))).toEqual([]);
  });
});

describe("S3 store against a real S3-protocol server", () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it("stores the re-encoded image in the bucket with an immutable Cache-Control, served at the public URL", async () => {
    const s3Context = { ...context, env: { ...env, s3: s3.config } };
    const request = new Request(`${SITE}/api/admin/uploads`, { method: "POST", headers: { cookie: adminCookie }, body: form(await jpeg(2000, 1000), { folder: "og" }) });
    const res = (await action({ request, context: s3Context, params: {} } as never)) as Response;
    expect(res.status).toBe(201);
    const body = (await res.json()) as { url: string; width: number; height: number; eyecatch: { url: string } };
    expect(body.url.startsWith(`${s3.endpoint}/torepoke-test/og/`)).toBe(true);
    expect(body).toMatchObject({ width: 1600, height: 800 });
    for (const url of [body.url, body.eyecatch.url]) {
      const object = await fetch(url);
      expect(object.status).toBe(200);
      expect(object.headers.get("content-type")).toBe("image/webp");
      expect(object.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await sharp(Buffer.from(await object.arrayBuffer())).metadata()).format).toBe("webp");
    }
    const key = body.url.slice(`${s3.config.publicUrl}/`.length);
    expect((await database.db.select({ key: uploads.key }).from(uploads).where(eq(uploads.key, key))).length).toBe(1);
  });

  it("deletes an object and maps its public URLs back to keys", async () => {
    const store = createS3Store(s3.config);
    await store.put("images/1-delete-me.webp", await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } }).webp().toBuffer(), "image/webp");
    const url = store.publicUrl("images/1-delete-me.webp");
    expect((await fetch(url)).status).toBe(200);
    expect(store.keyOfUrl(url)).toBe("images/1-delete-me.webp");
    expect(store.keyOfUrl(`${s3.endpoint}/other-bucket/images/1-delete-me.webp`)).toBeNull();
    // Generated files (share images) read back what they stored, and null once it is gone.
    expect((await sharp((await store.get("images/1-delete-me.webp"))!).metadata()).width).toBe(4);
    await store.delete("images/1-delete-me.webp");
    expect((await fetch(url)).status).toBe(404);
    expect(await store.get("images/1-delete-me.webp")).toBeNull();
  });
});

describe("upload limits", () => {
  it("refuses an administrator's uploads past the per-minute limit with 429 and a Japanese message; nothing is stored", async () => {
    const other = await signUp();
    await database.db.update(users).set({ role: "admin" }).where(eq(users.email, other.email));
    const small = await jpeg(16, 16);
    for (let i = 0; i < UPLOADS_PER_MINUTE; i++) expect((await upload(form(small), { cookie: other.cookie })).status).toBe(201);
    const before = (await database.db.select({ key: uploads.key }).from(uploads)).length;
    const refused = await upload(form(small), { cookie: other.cookie });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "rate_limited", error: "画像のアップロードが多すぎます。しばらく待ってからもう一度お試しください" });
    expect((await database.db.select({ key: uploads.key }).from(uploads)).length).toBe(before);
    // Another administrator is not held back by it.
    expect((await upload(form(small))).status).toBe(201);
  });

  it("answers 503 with a Japanese message while the image pool is full, and takes uploads again when it frees", async () => {
    const pool = resizeImageWorkPool(1, 0);
    try {
      const held = pool.enter()!;
      const refused = await upload(form(await jpeg(16, 16)));
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ code: "busy", error: "ただいま画像の処理が混み合っています。少し待ってからもう一度お試しください" });
      held.leave();
      expect((await upload(form(await jpeg(16, 16)))).status).toBe(201);
      // A refused body (not an image) gives its place back too.
      expect((await upload(form(Buffer.from("not an image"), {}, "x.txt", "text/plain"))).status).toBe(415);
      expect(pool.taken).toBe(0);
    } finally {
      resizeImageWorkPool(IMAGE_WORK_CONCURRENCY, IMAGE_WORK_WAITING);
    }
  });
});

describe("start-up clean-up of the upload folder", () => {
  it("removes .partial files and day-old images without a row, keeps recorded and recent ones", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "torepoke-clean-"));
    mkdirSync(path.join(root, "images"));
    const file = (name: string, ageMs = 0) => {
      const at = path.join(root, "images", name);
      writeFileSync(at, "x");
      const when = new Date(Date.now() - ageMs);
      utimesSync(at, when, when);
      return at;
    };
    const partial = file("1-a.webp.0a1b2c.partial", PARTIAL_AGE_MS + 60_000);
    const orphan = file("2-orphan.webp", ORPHAN_AGE_MS + 60_000);
    const recent = file("3-recent.webp", 60_000);
    const recorded = file("4-kept.webp", ORPHAN_AGE_MS + 60_000);
    // Another instance's write in progress in a shared folder.
    const writing = file("5-b.webp.1c2d3e.partial", 1_000);
    await database.db.insert(uploads).values({ key: "images/4-kept.webp", folder: "images", contentType: "image/webp", bytes: 1, width: 1, height: 1, uploadedBy: adminId });
    // Card art and share images have no uploads row and are kept whatever their age.
    const unrecorded = ["cards", "share"].map((folder) => {
      mkdirSync(path.join(root, folder));
      const at = path.join(root, folder, "x-1-full.webp");
      writeFileSync(at, "x");
      const when = new Date(Date.now() - ORPHAN_AGE_MS - 60_000);
      utimesSync(at, when, when);
      return at;
    });
    expect(await cleanLocalUploads(database.db, root)).toEqual({ partial: 1, orphans: 1 });
    expect([partial, orphan, recent, recorded, writing].map((f) => existsSync(f))).toEqual([false, false, true, true, true]);
    expect(unrecorded.map((f) => existsSync(f))).toEqual([true, true]);
    rmSync(root, { recursive: true, force: true });
  });
});
