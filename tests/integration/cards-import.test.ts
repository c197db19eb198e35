import { count, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardPacks, cards } from "#app/db/schema/index.ts";
import { listCards, searchCards } from "#app/features/cards/cards.server.ts";
import { catalogueCsv } from "#app/features/cards/catalogue-csv.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import {
  CardImportError,
  decodeCsvBytes,
  IMPORT_MAX_ROWS,
  importCardsFromCsv,
} from "#app/features/cards/import.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
});
afterAll(async () => {
  await database?.close();
});

const importedCount = async (packId: string) =>
  (await database.db.select({ n: count() }).from(cards).where(eq(cards.importPackId, packId)))[0].n;

/** The error an import throws, with its Japanese message. */
async function failure(title: string, csvData: string): Promise<{ error: CardImportError; message: string }> {
  const before = (await database.db.select({ n: count() }).from(cards))[0].n;
  try {
    await importCardsFromCsv(database.db, { title, csvData });
  } catch (error) {
    if (!(error instanceof CardImportError)) throw error;
    // All or nothing: a failed import writes no row.
    expect((await database.db.select({ n: count() }).from(cards))[0].n).toBe(before);
    return { error, message: error.text("ja") };
  }
  throw new Error("the import should have failed");
}

describe("CSV import (docs/product-rules.md §7 importCardsFromCSV)", () => {
  it("registers rows as cards of the pack, visible in listings and search, and a re-import duplicates nothing", async () => {
    const csv = "name,rarity,imageUrl\nテスト用ピジョット,◆◆◆,https://img.example/pidgeot.webp\nテスト用ポッポ,◆,\n";
    expect(await importCardsFromCsv(database.db, { title: "palkia", csvData: csv })).toEqual({ count: 2 });
    expect(await importedCount("palkia")).toBe(2);
    const listed = await listCards(database.db, { packId: "palkia", q: "てすと" });
    expect(listed.cards.map((c) => [c.name, c.rarity, c.imageUrl])).toEqual([
      ["テスト用ピジョット", "◆◆◆", "https://img.example/pidgeot.webp"],
      ["テスト用ポッポ", "◆", ""],
    ]);
    expect((await searchCards(database.db, "てすと用ぽっぽ")).map((c) => c.packId)).toEqual(["palkia"]);
    // Same file again, one image changed: same cards, updated, count = rows registered or updated.
    const again = csv.replace("pidgeot.webp", "pidgeot-2.webp");
    expect(await importCardsFromCsv(database.db, { title: "palkia", csvData: again })).toEqual({ count: 2 });
    expect(await importedCount("palkia")).toBe(2);
    const [updated] = await database.db.select().from(cards).where(eq(cards.name, "テスト用ピジョット"));
    expect(updated.imageUrl).toBe("https://img.example/pidgeot-2.webp");
  });

  it("takes optional type, HP and retreat columns for what the catalogue lacks; an empty cell stays unknown", async () => {
    const csv = "name,rarity,imageUrl,Pokemon Type,HP,にげる\nテスト用ライチュウ,◆◆,,雷,１２０,2\nテスト用ニャース,◆,,colorless,60,0\nテスト用ナゾ,◆,,,,\n";
    expect(await importCardsFromCsv(database.db, { title: "dialga", csvData: csv })).toEqual({ count: 3 });
    const rows = await database.db.select({ name: cards.name, element: cards.element, hp: cards.hp, retreatCost: cards.retreatCost }).from(cards).where(like(cards.name, "テスト用%")).orderBy(cards.name);
    expect(rows.filter((r) => ["テスト用ライチュウ", "テスト用ニャース", "テスト用ナゾ"].includes(r.name))).toEqual([
      { name: "テスト用ナゾ", element: null, hp: null, retreatCost: null },
      { name: "テスト用ニャース", element: "colorless", hp: 60, retreatCost: 0 },
      { name: "テスト用ライチュウ", element: "lightning", hp: 120, retreatCost: 2 },
    ]);
    // The card page and lists read them as the catalogue's own facts.
    const listed = await listCards(database.db, { packId: "dialga", q: "てすと用らいちゅう" });
    expect(listed.cards.map((c) => [c.element, c.hp])).toEqual([["lightning", 120]]);
    // A re-import without the columns (or with only some) leaves the facts an earlier import set.
    await importCardsFromCsv(database.db, { title: "dialga", csvData: "name,rarity,imageUrl\nテスト用ライチュウ,◆◆,https://img.example/raichu.webp\n" });
    await importCardsFromCsv(database.db, { title: "dialga", csvData: "name,rarity,imageUrl,hp\nテスト用ライチュウ,◆◆,https://img.example/raichu.webp,130\n" });
    const [kept] = await database.db.select({ imageUrl: cards.imageUrl, element: cards.element, hp: cards.hp, retreatCost: cards.retreatCost }).from(cards).where(eq(cards.name, "テスト用ライチュウ"));
    expect(kept).toEqual({ imageUrl: "https://img.example/raichu.webp", element: "lightning", hp: 130, retreatCost: 2 });
    // A re-import that has the columns but empties a cell makes the fact unknown again.
    await importCardsFromCsv(database.db, { title: "dialga", csvData: csv.replace("雷,１２０,2", ",,") });
    const [raichu] = await database.db.select({ element: cards.element, hp: cards.hp, retreatCost: cards.retreatCost }).from(cards).where(eq(cards.name, "テスト用ライチュウ"));
    expect(raichu).toEqual({ element: null, hp: null, retreatCost: null });

    const bad = ["name,rarity,imageUrl,element,hp,retreat", "a,◆,,光,60,1", "b,◆,,草,65,1", "c,◆,,草,0,1", "d,◆,,草,60,6", "e,◆,,草,60,-1", "f,◆,,草,HP60,1"].join("\n");
    const { error, message } = await failure("dialga", bad);
    expect(error.code).toBe("rows_invalid");
    expect(message).toMatch(/^6行に誤りがあるため登録しませんでした。/);
    expect(message).toContain("2行目: タイプ「光」は不明です");
    expect(message).toContain("3行目: hp「65」は10〜500の10の倍数にしてください");
    expect(message).toContain("4行目: hp「0」は10〜500の10の倍数にしてください");
    expect(message).toContain("5行目: retreat「6」は0〜5の整数にしてください");
    expect(message).toContain("6行目: retreat「-1」は0〜5の整数にしてください");
    // A spelling that names a property of every object is no type either (and no server error).
    const inherited = await failure("dialga", "name,rarity,imageUrl,element\ng,◆,,constructor\nh,◆,,__proto__\ni,◆,,toString\n");
    expect(inherited.error.code).toBe("rows_invalid");
    expect(inherited.message).toContain("2行目: タイプ「constructor」は不明です");
    expect(inherited.message).toContain("3行目: タイプ「__proto__」は不明です");
    expect(inherited.message).toContain("4行目: タイプ「toString」は不明です");
  });

  it("imports a file exported from the catalogue package's data: its type column is the card's kind, its element the Pokémon's type, its retreatCost a placeholder", async () => {
    const csv = [
      "name,rarity,image,element,type,stage,health,retreatCost",
      "テスト用フシギダネ,◆,,grass,pokemon,basic,50,1",
      "テスト用オーキド,◆◆,,,supporter,,50,1",
      "テスト用かせき,◆,,,Fossil,,50,1",
      "テスト用ヒトカゲ,◆,,Fire,pokemon,basic,50,1",
    ].join("\n");
    expect(await importCardsFromCsv(database.db, { title: "palkia", csvData: csv })).toEqual({ count: 4 });
    const rows = await database.db
      .select({ name: cards.name, element: cards.element, hp: cards.hp, retreatCost: cards.retreatCost })
      .from(cards)
      .where(inArray(cards.name, ["テスト用フシギダネ", "テスト用オーキド", "テスト用かせき", "テスト用ヒトカゲ"]));
    // `health` and `retreatCost` are not read: the package's 50 and 1 are placeholders, not facts.
    expect(Object.fromEntries(rows.map(({ name, ...facts }) => [name, facts]))).toEqual({
      テスト用フシギダネ: { element: "grass", hp: null, retreatCost: null },
      テスト用オーキド: { element: null, hp: null, retreatCost: null },
      テスト用かせき: { element: null, hp: null, retreatCost: null },
      テスト用ヒトカゲ: { element: "fire", hp: null, retreatCost: null },
    });
  });

  it("imports a real set where different cards share name and rarity (cloak forms, alternate arts), and again without duplicates", async () => {
    const csv =
      "name,rarity,imageUrl\n" +
      "テストミノマダム,◆◆,https://img.example/wormadam-plant.webp\n" +
      "テストミノマダム,◆◆,https://img.example/wormadam-sandy.webp\n" +
      "テストミノマダム,◆◆,https://img.example/wormadam-trash.webp\n" +
      "テスト別絵ピカチュウ,☆,https://img.example/pikachu-a.webp\n" +
      "テスト別絵ピカチュウ,☆,https://img.example/pikachu-b.webp\n" +
      "テスト一枚だけ,◆,https://img.example/single.webp\n";
    expect(await importCardsFromCsv(database.db, { title: "shining-high", csvData: csv })).toEqual({ count: 6 });
    expect(await importedCount("shining-high")).toBe(6);
    expect(await importCardsFromCsv(database.db, { title: "shining-high", csvData: csv })).toEqual({ count: 6 });
    expect(await importedCount("shining-high")).toBe(6);
    const forms = await database.db.select({ imageUrl: cards.imageUrl }).from(cards).where(eq(cards.name, "テストミノマダム"));
    expect(forms.map((f) => f.imageUrl).sort()).toEqual([
      "https://img.example/wormadam-plant.webp",
      "https://img.example/wormadam-sandy.webp",
      "https://img.example/wormadam-trash.webp",
    ]);
    // A set-number column tells them apart too, even with the same image.
    // (In a pack of its own: in a catalogue pack a set number names the catalogue's print.)
    const numbered = "name,rarity,imageUrl,number\nテスト番号違い,◆,,12\nテスト番号違い,◆,,13\n";
    expect(await importCardsFromCsv(database.db, { title: "test-numbers", newPackName: "番号テスト", csvData: numbered })).toEqual({ count: 2 });
    expect(await importCardsFromCsv(database.db, { title: "test-numbers", csvData: numbered })).toEqual({ count: 2 });
    expect((await database.db.select({ n: count() }).from(cards).where(eq(cards.name, "テスト番号違い")))[0].n).toBe(2);
  });

  it("names the lines and the fix when two rows are truly the same card", async () => {
    const { message } = await failure(
      "shining-high",
      "name,rarity,imageUrl\nテスト同一,◆,https://img.example/same.webp\nほか,◆,\nテスト同一,◆,https://img.example/same.webp\n",
    );
    expect(message).toContain("4行目: 2行目と同じカードです（name・rarity・imageUrl が同じ）。別のカードなら imageUrl か number 列（セット番号）で区別してください");
  });

  it("reads real-world files: BOM, CRLF, quoted commas/quotes/newlines, extra columns, any order, stray header spaces", async () => {
    const csv =
      "\uFEFF memo , Image_URL ,RARITY , Name \r\n" +
      'x,https://img.example/a.webp,☆☆,"ミュウ, ""幻""の"\r\n' +
      'y,,★,"改行\nカード"\r\n' +
      ",,,\r\n";
    expect(await importCardsFromCsv(database.db, { title: "phantom", csvData: csv })).toEqual({ count: 2 });
    const rows = await database.db.select({ name: cards.name, rarity: cards.rarity }).from(cards).where(eq(cards.importPackId, "phantom"));
    expect(rows.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "ミュウ, \"幻\"の", rarity: "☆☆" },
      { name: "改行\nカード", rarity: "☆" },
    ]);
  });

  it("decodes Shift_JIS (CP932) files as saved by Excel, and UTF-8 with or without BOM", () => {
    // "名前,①" in CP932: 名=96BC 前=914F ①=8740 (NEC special, CP932 only)
    const sjis = new Uint8Array([0x96, 0xbc, 0x91, 0x4f, 0x2c, 0x87, 0x40]);
    expect(decodeCsvBytes(sjis)).toBe("名前,①");
    const utf8 = new TextEncoder().encode("名前,①");
    expect(decodeCsvBytes(utf8)).toBe("名前,①");
    expect(decodeCsvBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe("名前,①");
  });

  it("maps rarity spellings (◇, ★, 👑/crown, codes, ◆3) to the display forms and rejects unknown ones", async () => {
    const spellings: [string, string][] = [
      ["◇◇", "◆◆"],
      ["◆3", "◆◆◆"],
      ["RR", "◆◆◆◆"],
      ["c", "◆"],
      ["AR", "☆"],
      ["SR", "☆☆"],
      ["SAR", "☆☆"],
      ["★★★", "☆☆☆"],
      ["IM", "☆☆☆"],
      ["UR", "👑"],
      ["crown", "👑"],
      ["👑", "👑"],
      ["S", "✦"],
      ["SSR", "✦✦"],
      ["PROMO", "PROMO"],
    ];
    const csv = "name,rarity,imageUrl\n" + spellings.map(([spelling], i) => `スペル${i},${spelling},`).join("\n");
    expect(await importCardsFromCsv(database.db, { title: "charizard", csvData: csv })).toEqual({ count: spellings.length });
    const rows = await database.db.select({ name: cards.name, rarity: cards.rarity }).from(cards).where(like(cards.name, "スペル%"));
    const byName = new Map(rows.map((r) => [r.name, r.rarity]));
    spellings.forEach(([spelling, display], i) => expect(byName.get(`スペル${i}`), spelling).toBe(display));

    const { message } = await failure("charizard", "name,rarity,imageUrl\nよいカード,◆,\n謎カード,SUPER,\n");
    expect(message).toContain("3行目: rarity「SUPER」は不明です");
  });

  it("writes nothing when any row is bad, and names the first bad rows with their line numbers", async () => {
    const csv = [
      "name,rarity,imageUrl",
      "正しいカード1,◆,",
      ",◆,",
      "レアなし,,",
      "正しいカード2,◆◆,",
      "悪いURL,◆,javascript:alert(1)",
      "正しいカード1,◆,",
      ...Array.from({ length: 10 }, (_, i) => `謎${i},?!,`),
    ].join("\n");
    const { error, message } = await failure("mewtwo", csv);
    expect(error.code).toBe("rows_invalid");
    expect(message).toMatch(/^14行に誤りがあるため登録しませんでした。/);
    expect(message).toContain("3行目: name が空です");
    expect(message).toContain("4行目: rarity が空です");
    expect(message).toContain("6行目: imageUrl は http:// または https:// で始まるURLにしてください");
    expect(message).toContain("7行目: 2行目と同じカードです");
    expect(message).toContain("ほか9行");
    expect(await importedCount("mewtwo")).toBe(0);
  });

  it("names missing required columns, and rejects an unknown pack, empty input and malformed CSV", async () => {
    expect((await failure("dialga", "name,rarity\na,◆\n")).message).toBe("必須の列がありません: imageUrl");
    expect((await failure("dialga", "title,foo\na,b\n")).message).toBe("必須の列がありません: name, rarity, imageUrl");
    expect((await failure("no-such-pack", "name,rarity,imageUrl\na,◆,\n")).message).toBe("パック「no-such-pack」が見つかりません");
    expect((await failure(" ", "name,rarity,imageUrl\na,◆,\n")).message).toBe("タイトルを入力してください");
    expect((await failure("dialga", "")).error.code).toBe("csv_missing");
    expect((await failure("dialga", "name,rarity,imageUrl\n")).error.code).toBe("no_rows");
    expect((await failure("dialga", 'name,rarity,imageUrl\n"unterminated,◆,\n')).error.code).toBe("malformed");
    expect(new CardImportError("columns_missing", { columns: "imageUrl" }).text("en")).toBe(
      "Required columns are missing: imageUrl",
    );
  });

  it("enforces the size and row limits with clear errors", async () => {
    const tooMany = "name,rarity,imageUrl\n" + Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `c${i},◆,`).join("\n");
    expect((await failure("dialga", tooMany)).message).toBe("行数が多すぎます（上限 20,000行）");
    const tooLarge = "name,rarity,imageUrl\n" + `${"あ".repeat(90)},◆,\n`.repeat(20_000);
    expect((await failure("dialga", tooLarge)).message).toBe("ファイルが大きすぎます（上限 5MB）");
  });

  it("stores formula-looking cells and HTML as plain text", async () => {
    const csv = 'name,rarity,imageUrl\n"=cmd|\' /C calc\'!A0",◆,\n"<img src=x onerror=alert(1)>",◆,\n+SUM(1),◆,\n';
    expect(await importCardsFromCsv(database.db, { title: "pikachu", csvData: csv })).toEqual({ count: 3 });
    const names = (await database.db.select({ name: cards.name }).from(cards).where(eq(cards.importPackId, "pikachu"))).map((r) => r.name);
    expect(names.sort()).toEqual(["+SUM(1)", "<img src=x onerror=alert(1)>", "=cmd|' /C calc'!A0"].sort());
  });

  it("imports the whole real catalogue as one CSV: every row names a catalogue print and updates it, twice, without a duplicate", async () => {
    const csv = catalogueCsv({ imageBase: "https://img.example/cards" });
    const rows = csv.trim().split("\r\n").length - 1;
    expect(rows).toBeGreaterThan(3000);
    const total = async () => (await database.db.select({ n: count() }).from(cards))[0].n;
    const before = await total();
    const links = async () => (await database.db.select({ n: count() }).from(cardPacks).where(eq(cardPacks.packId, "memorial")))[0].n;
    const linksBefore = await links();
    expect((await importCardsFromCsv(database.db, { title: "memorial", csvData: csv })).count).toBe(rows);
    expect((await importCardsFromCsv(database.db, { title: "memorial", csvData: csv })).count).toBe(rows);
    expect(await importedCount("memorial")).toBe(0);
    expect(await total()).toBe(before);
    expect(await links()).toBe(linksBefore);
    const [print] = await database.db.select({ imageUrl: cards.imageUrl }).from(cards).where(eq(cards.id, "A1-001"));
    expect(print.imageUrl).toBe("https://img.example/cards/A1-001.webp");
  });
});
