import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardPacks, cards, collectionCards, packs, tradeRuleChanges, wantedCards } from "#app/db/schema/index.ts";
import { readCatalogueSource } from "#app/features/cards/catalogue-source.server.ts";
import { readCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import * as catalogueRoute from "#app/routes/api.admin.cards.catalogue.ts";
import * as importRoute from "#app/routes/api.admin.cards.import.ts";
import * as importedRoute from "#app/routes/api.admin.cards.imported.ts";
import * as importedCardRoute from "#app/routes/api.admin.cards.imported.$id.ts";
import * as namesRoute from "#app/routes/api.admin.cards.names.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// カタログ更新 through the real Express app: the database holds the vendored catalogue without
// B4 (as a site installed before it), and the admin uploads the vendored files with one card renamed.
const SITE = "http://torepoke.test";
const SECRET = randomBytes(32).toString("base64url");
const DIST = path.resolve("catalogue/pokemon-tcg-pocket-database/dist");
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
let adminCookie: string;
let playerCookie: string;

const read = (file: string) => readFileSync(path.join(DIST, file), "utf8");
const packageCards = JSON.parse(read("cards.json")) as { set: string; number: number; name: string }[];
// One card the newer copy names otherwise (A1-010 in the package).
const renamedCards = packageCards.map((c) => (c.set === "A1" && c.number === 10 ? { ...c, name: "Beedrill Renamed" } : c));
const FILES = [
  { name: "sets.json", text: read("sets.json") },
  { name: "cards.json", text: JSON.stringify(renamedCards) },
  { name: "rarities.json", text: read("rarities.json") },
];

beforeAll(async () => {
  registerFeatureLinks();
  database = await createTestDatabase();
  const source = readCatalogueSource();
  await seedCatalogue(database.db, readCatalogue({ ...source, sets: source.sets.filter((s) => s.code !== "B4"), cards: source.cards.filter((c) => c.set !== "B4") }));
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-catalogue-admin-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  server = await startHttpApp({
    env,
    database,
    routes: {
      "api/admin/cards/catalogue": catalogueRoute,
      "api/admin/cards/import": importRoute,
      "api/admin/cards/names": namesRoute,
      "api/admin/cards/imported": importedRoute,
      "api/admin/cards/imported/:id": importedCardRoute,
    },
  });
  adminCookie = await createSessionCookie(database.db, (await createUser(database.db, { role: "admin" })).id, SECRET);
  playerCookie = await createSessionCookie(database.db, (await createUser(database.db)).id, SECRET);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the test expects them
type Answer = Record<string, any>;

async function call(method: string, pathname: string, body?: unknown, cookie = adminCookie): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers: { host: new URL(SITE).host, origin: SITE, cookie, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Answer };
}

const packCount = async (packId: string) => (await database.db.select({ n: count() }).from(cardPacks).where(eq(cardPacks.packId, packId)))[0].n;
const b4Packs = async () => (await database.db.select({ id: packs.id }).from(packs).where(eq(packs.setCode, "B4"))).map((p) => p.id);

describe("カタログ更新 (POST /api/admin/cards/catalogue)", () => {
  it("refuses players (403) and visitors (401) in the one error shape", async () => {
    const small = { step: "preview", files: [{ name: "sets.json", text: "[]" }] };
    const player = await call("POST", "/api/admin/cards/catalogue", small, playerCookie);
    expect(player.status).toBe(403);
    expect(player.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    expect((await call("POST", "/api/admin/cards/catalogue", small, "")).status).toBe(401);
  });

  it("refuses a file it cannot read (400) with the reason, and a missing sets.json", async () => {
    const broken = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: [FILES[0], { name: "cards.json", text: "[{" }] });
    expect(broken).toEqual({ status: 400, body: { code: "catalogue_file_invalid", error: "cards.json を読み取れません: JSON の形式が正しくありません" } });
    const shape = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: [FILES[0], { name: "cards.json", text: '[{"set":"A1","number":"x","rarity":"C","name":"A"}]' }] });
    expect(shape.status).toBe(400);
    expect(shape.body.error).toBe("cards.json を読み取れません: 1件目 の形式が正しくありません（number）");
    const missing = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: [FILES[1]] });
    expect(missing).toMatchObject({ status: 400, body: { code: "catalogue_files_missing" } });
  });

  it("previews (writing nothing), refuses a stale digest (409), applies exactly the plan with a trade hold, and a second apply changes nothing", async () => {
    const preview = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: FILES });
    expect(preview.status).toBe(200);
    const { plan, digest } = preview.body;
    expect(plan.newSets.map((s: { code: string }) => s.code)).toEqual(["B4"]);
    expect(plan.newCards).toBe(plan.newSets[0].cards);
    expect(plan.renamed.map((r: { id: string }) => r.id)).toEqual(["A1-010"]);
    expect(plan.removed).toBe(0);
    expect(await b4Packs()).toEqual([]);

    const stale = await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: FILES, digest: "0".repeat(32) });
    expect(stale).toEqual({ status: 409, body: { code: "catalogue_stale", error: "プレビューの後にカードデータが変わりました。もう一度プレビューしてから適用してください" } });
    expect(await b4Packs()).toEqual([]);

    const pastHold = await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: FILES, digest, holds: [{ setCode: "B4", until: "2020-01-01" }] });
    expect(pastHold).toMatchObject({ status: 400, body: { code: "catalogue_hold_invalid" } });

    const applied = await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: FILES, digest, holds: [{ setCode: "B4", until: "2099-01-01" }] });
    expect(applied.status).toBe(200);
    expect(applied.body.plan).toEqual(plan);
    const ids = await b4Packs();
    expect(ids.length).toBeGreaterThan(0);
    const [renamed] = await database.db.select({ nameEn: cards.nameEn }).from(cards).where(eq(cards.id, "A1-010"));
    expect(renamed.nameEn).toBe("Beedrill Renamed");
    // The hold is a pack rule: closed now, open again on the chosen day (Japan time).
    const rules = await database.db.select().from(tradeRuleChanges).where(inArray(tradeRuleChanges.target, ids));
    expect(rules.filter((r) => !r.tradeable)).toHaveLength(ids.length);
    expect(rules.filter((r) => r.tradeable).map((r) => r.effectiveAt.toISOString())).toEqual(ids.map(() => "2098-12-31T15:00:00.000Z"));

    // The old digest no longer describes what applying would do.
    expect((await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: FILES, digest })).status).toBe(409);
    const again = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: FILES });
    expect(again.body.plan).toMatchObject({ changes: false, newCards: 0, renamed: [], removed: 0 });
    const reapplied = await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: FILES, digest: again.body.digest });
    expect(reapplied).toMatchObject({ status: 200, body: { plan: { changes: false } } });
  });

  it("keeps an admin's 日本語名 through an update, and lists it as kept", async () => {
    const corrected = await call("POST", "/api/admin/cards/names", { cardId: "A1-001", name: "フシギダネ（修正）", note: "https://example.com/source" });
    expect(corrected.status).toBe(200);
    expect((await call("POST", "/api/admin/cards/names", { cardId: "A1-001", name: "", note: "" })).body).toMatchObject({ code: "invalid_request" });
    expect((await call("POST", "/api/admin/cards/names", { cardId: "ZZ-999", name: "x", note: "y" })).status).toBe(404);
    const preview = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: FILES });
    expect(preview.body.plan.correctionsKept).toEqual([{ id: "A1-001", name: "フシギダネ（修正）", catalogueName: "フシギダネ", note: "https://example.com/source" }]);
    expect(preview.body.plan.changes).toBe(false);
  });

  it("reads a CSV of prints: a new set and a renamed print", async () => {
    const csv = "set,number,name,name_ja,rarity,type,hp\nA1,11,Oddish,ナゾノクサＸ,◆,grass,50\nZ9,1,Testmon,テストモン,◆,草,60\n";
    const preview = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: [{ name: "update.csv", text: csv }] });
    expect(preview.status).toBe(200);
    expect(preview.body.plan).toMatchObject({ newCards: 1, renamed: [{ id: "A1-011", to: "ナゾノクサＸ" }], removed: 0 });
    expect(preview.body.plan.newSets.map((s: { code: string }) => s.code)).toEqual(["Z9"]);
    const applied = await call("POST", "/api/admin/cards/catalogue", { step: "apply", files: [{ name: "update.csv", text: csv }], digest: preview.body.digest });
    expect(applied.status).toBe(200);
    const [card] = await database.db.select().from(cards).where(eq(cards.id, "Z9-001"));
    expect(card).toMatchObject({ name: "テストモン", nameEn: "Testmon", rarity: "◆", element: "grass", hp: 60 });
    const bad = await call("POST", "/api/admin/cards/catalogue", { step: "preview", files: [{ name: "update.csv", text: "set,number,name,rarity\nA1,1,Bulbasaur,ZZ\n" }] });
    expect(bad).toEqual({ status: 400, body: { code: "catalogue_file_invalid", error: "update.csv を読み取れません: 2行目 のレアリティ「ZZ」は不明です" } });
  });
});

describe("the CSV card import stops duplicating; imported cards are listed, edited and deleted", () => {
  it("a row naming an existing print updates it: the pack's card count is unchanged", async () => {
    const before = await packCount("charizard");
    const [print] = await database.db.select({ id: cards.id, name: cards.name, rarity: cards.rarity }).from(cards).where(eq(cards.id, "A1-033"));
    const csv = `name,rarity,imageUrl,number\n${print.name},${print.rarity},https://img.example/a1-033.webp,33\n`;
    expect(await call("POST", "/api/admin/cards/import", { title: "charizard", csvData: csv })).toEqual({ status: 200, body: { count: 1 } });
    // The same print by name and rarity alone.
    const byName = `name,rarity,imageUrl\n${print.name},${print.rarity},https://img.example/a1-033b.webp\n`;
    expect((await call("POST", "/api/admin/cards/import", { title: "charizard", csvData: byName })).status).toBe(200);
    expect(await packCount("charizard")).toBe(before);
    const [updated] = await database.db.select({ imageUrl: cards.imageUrl, importPackId: cards.importPackId }).from(cards).where(eq(cards.id, "A1-033"));
    expect(updated).toEqual({ imageUrl: "https://img.example/a1-033b.webp", importPackId: null });
    // A row that only names the print (no picture, no facts, its own name) changes nothing and is no error.
    expect(await call("POST", "/api/admin/cards/import", { title: "charizard", csvData: `name,rarity,imageUrl\n${print.name},${print.rarity},\n` })).toEqual({ status: 200, body: { count: 1 } });
    expect(await packCount("charizard")).toBe(before);
  });

  it("imports into a new pack, lists and edits its cards, and refuses deleting a card a want list holds", async () => {
    const created = await call("POST", "/api/admin/cards/import", { title: "event-2026", newPackName: "イベント2026", csvData: "name,rarity,imageUrl\nイベントピカチュウ,PROMO,\nイベントイーブイ,PROMO,\n" });
    expect(created).toEqual({ status: 200, body: { count: 2 } });
    expect((await call("POST", "/api/admin/cards/import", { title: "event-2026", newPackName: "x", csvData: "name,rarity,imageUrl\nA,◆,\n" })).body).toMatchObject({ code: "pack_exists" });
    const listed = await call("GET", "/api/admin/cards/imported?pack=event-2026");
    expect(listed.body.cards.map((c: { name: string }) => c.name).sort()).toEqual(["イベントイーブイ", "イベントピカチュウ"]);
    const [pikachu, eevee] = [...listed.body.cards].sort((a, b) => b.name.localeCompare(a.name));
    const edited = await call("PATCH", `/api/admin/cards/imported/${encodeURIComponent(pikachu.id)}`, { name: "イベントピカチュウ改", rarity: "PROMO", imageUrl: "" });
    expect(edited.body.card).toMatchObject({ name: "イベントピカチュウ改" });

    const player = await createUser(database.db);
    await database.db.insert(wantedCards).values({ userId: player.id, cardId: pikachu.id });
    const refused = await call("DELETE", `/api/admin/cards/imported/${encodeURIComponent(pikachu.id)}`);
    expect(refused).toEqual({ status: 409, body: { code: "card_referenced", error: "「イベントピカチュウ改」はほしいカードで使われているため削除できません" } });
    // A card in a player's collection is held too: deleting it would take it out of the collection.
    const collector = await createUser(database.db);
    await database.db.insert(collectionCards).values({ userId: collector.id, cardId: eevee.id, count: 2 });
    expect((await call("DELETE", `/api/admin/cards/imported/${encodeURIComponent(eevee.id)}`)).body).toMatchObject({ code: "card_referenced", error: "「イベントイーブイ」はプレイヤーのコレクションで使われているため削除できません" });
    await database.db.delete(collectionCards).where(eq(collectionCards.userId, collector.id));
    expect((await call("DELETE", `/api/admin/cards/imported/${encodeURIComponent(eevee.id)}`)).status).toBe(204);
    expect((await call("GET", "/api/admin/cards/imported?pack=event-2026")).body.cards).toHaveLength(1);
    // A catalogue card is not deleted from here.
    expect((await call("DELETE", "/api/admin/cards/imported/A1-001")).body).toMatchObject({ code: "card_not_imported" });
  });
});
