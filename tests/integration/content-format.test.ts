import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { cards } from "#app/db/schema/index.ts";
import { cardIndex, invalidateCardIndex } from "#app/features/cards/card-index.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { contentRefIds, formatContent, sanitizeContentHtml } from "#app/features/content/format.ts";
import { renderStoredContent, resolveContentRefs } from "#app/features/content/refs.server.ts";
import { createLocalStore } from "#app/features/uploads/storage.server.ts";
import { saveUpload } from "#app/features/uploads/uploads.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-content-"));
  await seedCatalogue(database.db);
}, 120_000);
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("stored HTML of an editor's text", () => {
  it("renders card blocks from the card database and gives hosted images their size", async () => {
    const store = createLocalStore(path.join(dataDir, "uploads"), "http://torepoke.test");
    const image = await saveUpload(database.db, store, { bytes: await sharp({ create: { width: 640, height: 480, channels: 3, background: "#123456" } }).png().toBuffer(), folder: "images", userId: null });
    const card = (await cardIndex(database.db)).cards[0];
    const source = `紹介します\n[[card:${card.id}]]\n![図](${image.url})\n[[article:unknown]]\n<script>alert(1)</script>`;
    const html = await renderStoredContent(database.db, store, source);
    expect(formatContent(source, await resolveContentRefs(database.db, store, contentRefIds(source)))).toBe(html);
    expect(html).toContain(`href="/cards/${card.id}"`);
    expect(html).toContain(`<span class="content-card-name">${card.name}</span>`);
    expect(html).toContain(`<img src="${image.url}" alt="図" width="640" height="480" loading="lazy" decoding="async" />`);
    expect(html).toContain("記事が見つかりません");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script");
    // What is stored is cleaned again when served; clean output survives that unchanged.
    expect(sanitizeContentHtml(html)).toBe(html);
  });

  it("draws card blocks by the cards' one art rule: our stored art, else CARD_IMAGE_BASE_URL + the catalogue's file, else a placeholder framed by type", async () => {
    const store = createLocalStore(path.join(dataDir, "uploads"), "http://torepoke.test");
    const [bulbasaur] = await database.db.select({ imageFile: cards.imageFile }).from(cards).where(eq(cards.id, "A1-001"));
    await database.db.update(cards).set({ storedImage: "/uploads/cards/A1-001-0123456789abcdef" }).where(eq(cards.id, "A1-001"));
    invalidateCardIndex(database.db);
    try {
      const html = await renderStoredContent(database.db, store, "[[card:A1-001]]\n[[card:A1-004]]\n[[card:A1-223]]", { cardImageBaseUrl: "https://cards.example/img/" });
      expect(html).toContain('<img class="content-card-image content-card-type-grass" src="/uploads/cards/A1-001-0123456789abcdef-thumb.webp" alt="フシギダネ" width="240" height="335"');
      expect(bulbasaur.imageFile).toBeTruthy();
      const [venusaur] = await database.db.select({ imageFile: cards.imageFile }).from(cards).where(eq(cards.id, "A1-004"));
      expect(html).toContain(`src="https://cards.example/img/${venusaur.imageFile}"`);
      const plain = await renderStoredContent(database.db, store, "[[card:A1-004]]\n[[card:A1-223]]");
      expect(plain).toContain('<span class="content-card-placeholder content-card-type-grass" aria-hidden="true"></span>');
      expect(plain).toContain('<span class="content-card-placeholder content-card-type-trainer" aria-hidden="true"></span>');
      expect(sanitizeContentHtml(html)).toBe(html);
    } finally {
      await database.db.update(cards).set({ storedImage: null }).where(eq(cards.id, "A1-001"));
      invalidateCardIndex(database.db);
    }
  });
});
