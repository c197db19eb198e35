import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardIndex } from "../../app/features/cards/card-index.server";
import { seedCatalogue } from "../../app/features/cards/catalogue.server";
import { sanitizeContentHtml } from "../../app/features/content/format";
import { renderStoredContent } from "../../app/features/content/refs.server";
import { createLocalStore } from "../../app/features/uploads/storage.server";
import { saveUpload } from "../../app/features/uploads/uploads.server";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

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
    const html = await renderStoredContent(database.db, store, `紹介します\n[[card:${card.id}]]\n![図](${image.url})\n[[article:unknown]]\n<script>alert(1)</script>`);
    expect(html).toContain(`href="/cards/${card.id}"`);
    expect(html).toContain(`<span class="content-card-name">${card.name}</span>`);
    expect(html).toContain(`<img src="${image.url}" alt="図" width="640" height="480" loading="lazy" decoding="async" />`);
    expect(html).toContain("記事が見つかりません");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script");
    // What is stored is cleaned again when served; clean output survives that unchanged.
    expect(sanitizeContentHtml(html)).toBe(html);
  });
});
