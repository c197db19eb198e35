import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards } from "#app/db/schema/index.ts";
import { loadCardImages } from "#app/features/cards/card-images.server.ts";
import { listCards } from "#app/features/cards/cards.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { createLocalStore, createS3Store } from "#app/features/uploads/storage.server.ts";
import { startS3Server } from "#tests/support/s3-server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let work: string;

/** A card-shaped test picture of one colour, made here (no real card art in the repository). */
const picture = (r: number, g: number, b: number) =>
  sharp({ create: { width: 367, height: 512, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  work = await mkdtemp(path.join(tmpdir(), "card-images-"));
});
afterAll(async () => {
  await database?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("cards:images (loadCardImages)", () => {
  it("stores found images as WebP in two sizes, reports missing and failed ones, and a second run stores nothing", async () => {
    const rows = await database.db
      .select({ id: cards.id, imageFile: cards.imageFile, storedImage: cards.storedImage })
      .from(cards)
      .where(inArray(cards.id, ["A1-001", "A1-223", "A2-001", "A1-004"]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const folder = path.join(work, "images");
    await mkdir(path.join(folder, "nested"), { recursive: true });
    await writeFile(path.join(folder, byId.get("A1-001")!.imageFile!), await picture(40, 160, 60));
    await writeFile(path.join(folder, "nested", byId.get("A1-223")!.imageFile!), await picture(120, 120, 140));
    // The package's own layout for another card: cards-by-set/<set>/<number>.webp
    await mkdir(path.join(folder, "cards-by-set", "A2"), { recursive: true });
    await writeFile(path.join(folder, "cards-by-set", "A2", "1.webp"), await sharp(await picture(200, 40, 40)).webp().toBuffer());
    await writeFile(path.join(folder, byId.get("A1-004")!.imageFile!), "not an image");

    const uploads = path.join(work, "uploads");
    const store = createLocalStore(uploads, "http://127.0.0.1");
    const progress: string[] = [];
    const first = await loadCardImages(database.db, folder, store, (p) => progress.push(`${p.cardId}:${p.outcome}`));
    // Reprints share their image file: every card with one of these files is found.
    const all = await database.db.select({ id: cards.id, imageFile: cards.imageFile, setCode: cards.setCode, number: cards.number }).from(cards);
    const named = (id: string) => all.filter((c) => c.imageFile === byId.get(id)!.imageFile).map((c) => c.id);
    const expectFound = new Set([...named("A1-001"), ...named("A1-223"), ...named("A1-004"), "A2-001"]);
    const expectFailed = named("A1-004").sort();
    const withFile = all.filter((c) => c.imageFile).length;
    expect(first).toMatchObject({
      found: expectFound.size,
      failed: expectFailed.length,
      stored: expectFound.size - expectFailed.length,
      unchanged: 0,
      missing: withFile - expectFound.size,
    });
    expect(first.failures.map((f) => f.cardId).sort()).toEqual(expectFailed);
    expect(progress).toContain("A1-001:stored");
    expect(progress).toContain("A1-004:failed");

    const [bulbasaur] = await database.db.select({ storedImage: cards.storedImage }).from(cards).where(eq(cards.id, "A1-001"));
    expect(bulbasaur.storedImage).toMatch(/^\/uploads\/cards\/A1-001-[0-9a-f]{16}$/);
    const key = bulbasaur.storedImage!.replace(/^\/uploads\//, "");
    const thumb = await sharp(path.join(uploads, `${key}-thumb.webp`)).metadata();
    const full = await sharp(path.join(uploads, `${key}-full.webp`)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 240, 335]);
    expect([full.format, full.width, full.height]).toEqual(["webp", 480, 670]);
    const [failed] = await database.db.select({ storedImage: cards.storedImage }).from(cards).where(eq(cards.id, "A1-004"));
    expect(failed.storedImage).toBeNull();

    // The listing the pages read hands the stored art over.
    const listed = await listCards(database.db, { packId: "mewtwo", q: "フシギダネ" });
    expect(listed.cards.find((c) => c.id === "A1-001")?.storedImage).toBe(bulbasaur.storedImage);

    const filesBefore = await readdir(path.join(uploads, "cards"));
    const mtime = (await stat(path.join(uploads, `${key}-full.webp`))).mtimeMs;
    const second = await loadCardImages(database.db, folder, store);
    expect(second).toMatchObject({ found: first.found, failed: first.failed, stored: 0, unchanged: first.stored });
    expect(await readdir(path.join(uploads, "cards"))).toEqual(filesBefore);
    expect((await stat(path.join(uploads, `${key}-full.webp`))).mtimeMs).toBe(mtime);

    // A changed file replaces the art.
    await writeFile(path.join(folder, byId.get("A1-001")!.imageFile!), await picture(10, 10, 200));
    const third = await loadCardImages(database.db, folder, store);
    expect(third).toMatchObject({ stored: named("A1-001").length, unchanged: first.stored - named("A1-001").length });
    const [after] = await database.db.select({ storedImage: cards.storedImage }).from(cards).where(eq(cards.id, "A1-001"));
    expect(after.storedImage).not.toBe(bulbasaur.storedImage);
  });

  it("writes through the S3 driver of the same upload store when the site stores uploads in a bucket", async () => {
    const s3 = await startS3Server();
    try {
      const [row] = await database.db.select({ imageFile: cards.imageFile }).from(cards).where(eq(cards.id, "A1-033"));
      const folder = path.join(work, "s3-images");
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, row.imageFile!), await picture(230, 90, 30));
      const store = createS3Store(s3.config);
      const summary = await loadCardImages(database.db, folder, store);
      expect(summary.failed).toBe(0);
      expect(summary.stored).toBeGreaterThan(0);
      const [card] = await database.db.select({ storedImage: cards.storedImage }).from(cards).where(eq(cards.id, "A1-033"));
      expect(card.storedImage!.startsWith(`${s3.config.publicUrl}/cards/A1-033-`)).toBe(true);
      for (const [size, width] of [["thumb", 240], ["full", 480]] as const) {
        const object = await fetch(`${card.storedImage}-${size}.webp`);
        expect(object.status).toBe(200);
        expect(object.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const meta = await sharp(Buffer.from(await object.arrayBuffer())).metadata();
        expect([meta.format, meta.width]).toEqual(["webp", width]);
      }
      // A second run finds the card already pointing at this file's art and stores nothing.
      expect(await loadCardImages(database.db, folder, store)).toMatchObject({ stored: 0, unchanged: summary.stored });
    } finally {
      await s3.close();
    }
  });
});
