import { createHash } from "node:crypto";
import { CsvError, parse } from "csv-parse/sync";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, packs } from "#app/db/schema/index.ts";
import { invalidateCardIndex } from "./card-index.server";
import { getPack } from "./cards.server";
import { cardSearchText } from "./catalogue.server";
import { CardError, CardImportError, HP_MAX, RETREAT_MAX, type ImportErrorCode, type ImportIssue, type ImportIssueCode } from "./errors";
import { rarityFromSpelling } from "#app/lib/rarity.ts";
import type { Element } from "#app/lib/card-face.ts";

// Limits of one import (issue 4): the whole real catalogue is ~3,300 rows and ~200 KB.
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
export const NAME_MAX_LENGTH = 100;
const URL_MAX_LENGTH = 2048;
/** How many bad rows an error names; the rest are counted. */
export const IMPORT_ISSUES_SHOWN = 5;
const BATCH = 500;

export { CardImportError, type ImportErrorCode, type ImportIssue, type ImportIssueCode };

export { decodeCsvBytes } from "./csv-encoding";

export type ParsedCardRow = {
  line: number;
  name: string;
  nameEn: string;
  rarity: string;
  imageUrl: string;
  number: number | null;
  /** The file's own set number and id cells (null when the row has none): they name an existing print. */
  givenNumber: number | null;
  givenId: string | null;
  /** Optional facts the operator fills where the catalogue has none (null: not in the file). */
  element: Element | null;
  hp: number | null;
  retreatCost: number | null;
  key: string;
};

// Header spellings → our column. Headers are compared trimmed, case-insensitive, without
// spaces, underscores or hyphens (" Image_URL " is imageUrl).
const COLUMN_ALIASES: Record<string, keyof Columns> = {
  name: "name",
  cardname: "name",
  rarity: "rarity",
  imageurl: "imageUrl",
  image: "imageUrl",
  id: "id",
  cardid: "id",
  number: "number",
  no: "number",
  nameen: "nameEn",
  englishname: "nameEn",
  // The Pokémon's type. Not `type`: in the catalogue package's data (and files exported from it)
  // `type` is the card's kind (pokemon, supporter, item …) and `element` the Pokémon's type.
  element: "element",
  pokemontype: "element",
  タイプ: "element",
  hp: "hp",
  // Not `retreatCost`: the catalogue package fills that with one placeholder value for every card.
  retreat: "retreat",
  にげる: "retreat",
};
type Columns = { name?: number; rarity?: number; imageUrl?: number; id?: number; number?: number; nameEn?: number; element?: number; hp?: number; retreat?: number };

// A type cell: the element's English name or the mark Japanese cards print (草 炎 水 …). A Map,
// so a cell like "constructor" or "__proto__" is just an unknown spelling.
export const TYPE_SPELLINGS = new Map<string, Element>(Object.entries({
  grass: "grass", 草: "grass",
  fire: "fire", 炎: "fire",
  water: "water", 水: "water",
  lightning: "lightning", electric: "lightning", 雷: "lightning",
  psychic: "psychic", 超: "psychic",
  fighting: "fighting", 闘: "fighting",
  darkness: "darkness", dark: "darkness", 悪: "darkness",
  metal: "metal", steel: "metal", 鋼: "metal",
  dragon: "dragon", ドラゴン: "dragon", 竜: "dragon",
  colorless: "colorless", colourless: "colorless", 無: "colorless", 無色: "colorless",
} satisfies Record<string, Element>));
// HP as printed: a multiple of 10 up to HP_MAX. Retreat cost: 0 to RETREAT_MAX energies.

const headerKey = (cell: string) => cell.replace(/^\uFEFF/, "").normalize("NFKC").replace(/[\s_-]+/g, "").toLowerCase();

/** The optional fact columns, by the card field each fills. */
const FACT_COLUMNS = { element: "element", hp: "hp", retreatCost: "retreat" } as const;
export type FactField = keyof typeof FACT_COLUMNS;

export type ParsedCardCsv = {
  rows: ParsedCardRow[];
  /** The optional facts the file has a column for: only these are written on a re-import. */
  facts: FactField[];
};

/**
 * Parses and validates the CSV rows (no database access). Throws CardImportError for a file
 * that cannot be imported; every bad row is collected so the admin can fix them all at once.
 */
export function parseCardCsv(text: string): ParsedCardCsv {
  if (!text.replace(/^\uFEFF/, "").trim()) throw new CardImportError("csv_missing");
  if (Buffer.byteLength(text, "utf8") > IMPORT_MAX_BYTES) throw new CardImportError("too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 });
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // One header + the row limit + one more, to know the file is over the limit.
      to: IMPORT_MAX_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : undefined;
      throw new CardImportError("malformed", { line: line ?? "?" });
    }
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw new CardImportError("csv_missing");
  const columns: Columns = {};
  header.record.forEach((cell, index) => {
    const column = COLUMN_ALIASES[headerKey(cell)];
    if (column && columns[column] === undefined) columns[column] = index;
  });
  const missing = (["name", "rarity", "imageUrl"] as const).filter((c) => columns[c] === undefined);
  if (missing.length) throw new CardImportError("columns_missing", { columns: [...missing].join(", ") });
  // Rows whose every cell is blank (e.g. ",,," left by Excel) are not cards.
  const cardRows = rows.filter((r) => r.record.some((cell) => cell.trim() !== ""));
  if (cardRows.length > IMPORT_MAX_ROWS) throw new CardImportError("too_many_rows", { max: IMPORT_MAX_ROWS.toLocaleString("en-US") });
  if (!cardRows.length) throw new CardImportError("no_rows");

  const issues: ImportIssue[] = [];
  type Candidate = Omit<ParsedCardRow, "key"> & { baseKey: string; variant: string | null };
  const candidates: Candidate[] = [];
  cardRows.forEach(({ record, info }, index) => {
    // info.lines is the line the record ends on; a quoted cell may span several lines.
    const line = info.lines;
    const cell = (column: keyof Columns) => {
      const i = columns[column];
      // PostgreSQL text cannot hold NUL: drop it rather than fail the whole file.
      return i === undefined ? "" : (record[i] ?? "").replace(/\u0000/g, "").trim();
    };
    // Cells are stored exactly as text: "=cmd|..." stays a string, "<b>" is shown as typed.
    const name = cell("name");
    const rawRarity = cell("rarity");
    const imageUrl = cell("imageUrl");
    const rowIssues: ImportIssue[] = [];
    if (!name) rowIssues.push({ line, code: "name_missing" });
    else if ([...name].length > NAME_MAX_LENGTH) rowIssues.push({ line, code: "name_too_long" });
    const rarity = rawRarity ? rarityFromSpelling(rawRarity) : undefined;
    if (!rawRarity) rowIssues.push({ line, code: "rarity_missing" });
    else if (!rarity) rowIssues.push({ line, code: "rarity_unknown", value: rawRarity.slice(0, 20) });
    if (imageUrl && (imageUrl.length > URL_MAX_LENGTH || !/^https?:\/\/[^\s]+$/i.test(imageUrl))) {
      rowIssues.push({ line, code: "image_url_invalid" });
    }
    // Optional facts: an empty cell is "not known", never a default.
    const typeCell = cell("element").normalize("NFKC");
    const element = typeCell ? (TYPE_SPELLINGS.get(typeCell.toLowerCase().replace(/タイプ$/, "")) ?? null) : null;
    if (typeCell && !element) rowIssues.push({ line, code: "type_unknown", value: typeCell.slice(0, 20) });
    const hpCell = cell("hp").normalize("NFKC");
    const hp = /^\d{1,3}$/.test(hpCell) ? Number(hpCell) : null;
    if (hpCell && (hp === null || hp < 10 || hp > HP_MAX || hp % 10 !== 0)) rowIssues.push({ line, code: "hp_invalid", value: hpCell.slice(0, 20) });
    const retreatCell = cell("retreat").normalize("NFKC");
    const retreatCost = /^\d$/.test(retreatCell) ? Number(retreatCell) : null;
    if (retreatCell && (retreatCost === null || retreatCost > RETREAT_MAX)) rowIssues.push({ line, code: "retreat_invalid", value: retreatCell.slice(0, 20) });
    const explicitId = cell("id");
    const numberCell = cell("number").normalize("NFKC");
    const number = /^\d{1,6}$/.test(numberCell) ? Number(numberCell) : null;
    if (rowIssues.length) {
      issues.push(...rowIssues);
      return;
    }
    candidates.push({
      line,
      name,
      nameEn: cell("nameEn"),
      rarity: rarity!,
      imageUrl,
      number: number ?? index + 1,
      givenNumber: number,
      givenId: explicitId || null,
      element,
      hp,
      retreatCost,
      // Natural key (IMPORT.md beside this file): the file's own id when it has one, otherwise
      // name + rarity; when a file has several cards of one name and rarity (cloak forms,
      // alternate arts), those rows add their set number, or else their image.
      baseKey: explicitId ? `id:${explicitId}` : `name:${JSON.stringify([name, rarity])}`,
      variant: explicitId ? null : number !== null ? `no:${number}` : imageUrl,
    });
  });
  const perBaseKey = new Map<string, number>();
  for (const c of candidates) perBaseKey.set(c.baseKey, (perBaseKey.get(c.baseKey) ?? 0) + 1);
  const parsed: ParsedCardRow[] = [];
  const seen = new Map<string, number>();
  for (const { baseKey, variant, ...row } of candidates) {
    const shared = variant !== null && perBaseKey.get(baseKey)! > 1;
    const key = shared ? `name:${JSON.stringify([row.name, row.rarity, variant])}` : baseKey;
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push({ line: row.line, code: "duplicate", otherLine: other });
      continue;
    }
    seen.set(key, row.line);
    parsed.push({ ...row, key });
  }
  issues.sort((a, b) => a.line - b.line);
  if (issues.length) {
    const lines = new Set(issues.map((i) => i.line));
    throw new CardImportError("rows_invalid", {}, { issues: issues.slice(0, IMPORT_ISSUES_SHOWN), issueCount: lines.size, nameMax: NAME_MAX_LENGTH });
  }
  const facts = (Object.keys(FACT_COLUMNS) as FactField[]).filter((field) => columns[FACT_COLUMNS[field]] !== undefined);
  return { rows: parsed, facts };
}

/** Card id of an imported row: stable for the natural key, safe in a URL. */
export function importedCardId(packId: string, key: string): string {
  return `${packId}~${createHash("sha256").update(JSON.stringify([packId, key])).digest("hex").slice(0, 16)}`;
}

export type CardImportInput = {
  title: string;
  csvData: string;
  /** 新しいパック: `title` is then the new pack's id and this its name, created with the cards. */
  newPackName?: string;
};

const PACK_ID = /^[a-z0-9][a-z0-9-]{1,39}$/;

type Print = { id: string; setCode: string | null; number: number | null; name: string; nameEn: string; rarity: string; inPack: boolean };

/**
 * The catalogue card a row names, if any: its id cell, or its set number within the pack's set,
 * or else its name (Japanese or English) and rarity among the pack's cards. Such a row updates that
 * print instead of adding a second card of it; a name and rarity the pack holds twice needs a number.
 */
function printOf(row: ParsedCardRow, setCode: string, prints: Print[], byId: Map<string, Print>): Print | null {
  if (row.givenId && byId.has(row.givenId)) return byId.get(row.givenId)!;
  if (row.givenNumber !== null) {
    const numbered = byId.get(`${setCode}-${String(row.givenNumber).padStart(3, "0")}`);
    if (numbered) return numbered;
  }
  const named = prints.filter((p) => p.inPack && p.rarity === row.rarity && (p.name === row.name || p.nameEn === row.name));
  if (named.length > 1 && row.givenNumber === null) throw new CardError("print_ambiguous", { line: row.line, name: row.name, rarity: row.rarity });
  return named.length === 1 ? named[0] : null;
}

/**
 * docs/product-rules.md §7 importCardsFromCSV: registers every row of the CSV as a card of the pack named
 * by `title`, all or nothing, in one transaction. A row naming a print the catalogue already has
 * (id, set number, or name + rarity within the pack) updates that card: the pack's card count
 * stays. Importing the same file again updates the same cards (natural key pack + id column, or
 * pack + name + rarity). Returns how many cards were registered or updated.
 */
export async function importCardsFromCsv(db: Db, input: CardImportInput): Promise<{ count: number }> {
  const packId = input.title.trim();
  if (!packId) throw new CardImportError("title_missing");
  if (!input.csvData.trim()) throw new CardImportError("csv_missing");
  const newPackName = input.newPackName?.trim();
  if (newPackName !== undefined && (!PACK_ID.test(packId) || !newPackName || [...newPackName].length > 60)) throw new CardError("pack_invalid");
  const { rows, facts } = parseCardCsv(input.csvData);
  const existing = await getPack(db, packId);
  if (newPackName !== undefined && existing) throw new CardError("pack_exists", { pack: packId });
  if (newPackName === undefined && !existing) throw new CardImportError("unknown_pack", { pack: packId.slice(0, 50) });
  const pack = existing ?? { id: packId, setCode: packId };

  await db.transaction(async (tx) => {
    if (newPackName !== undefined) {
      const [{ last }] = await tx.select({ last: sql<number>`coalesce(max(${packs.sortOrder}), 0)::int` }).from(packs);
      const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
      await tx.insert(packs).values({ id: pack.id, nameJa: newPackName, nameEn: newPackName, setCode: pack.setCode, setNameJa: newPackName, setNameEn: newPackName, releaseDate: today, sortOrder: last + 1 });
    }
    // An id cell naming a catalogue card names that print, whichever pack it is in.
    const givenIds = rows.flatMap((row) => (row.givenId ? [row.givenId] : []));
    const prints: Print[] = (
      await tx
        .select({ id: cards.id, setCode: cards.setCode, number: cards.number, name: cards.name, nameEn: cards.nameEn, rarity: cards.rarity, inPack: sql<boolean>`exists (select 1 from ${cardPacks} where ${cardPacks.cardId} = ${cards.id} and ${cardPacks.packId} = ${pack.id})` })
        .from(cards)
        .where(and(isNull(cards.importPackId), or(eq(cards.setCode, pack.setCode), inArray(cards.id, givenIds), sql`${cards.id} in (select ${cardPacks.cardId} from ${cardPacks} where ${cardPacks.packId} = ${pack.id})`)))
    ).map((p) => ({ ...p, inPack: Boolean(p.inPack) }));
    const byId = new Map(prints.map((p) => [p.id, p]));
    const imported: ParsedCardRow[] = [];
    for (const row of rows) {
      const print = printOf(row, pack.setCode, prints, byId);
      if (!print) {
        imported.push(row);
        continue;
      }
      // The catalogue's print: the file adds its picture and the facts it names; a different
      // Japanese name is the admin's correction, which catalogue updates keep.
      const renamed = row.name !== print.name && row.name !== print.nameEn;
      const changes = {
        ...(row.imageUrl && { imageUrl: row.imageUrl }),
        ...(facts.includes("element") && row.element && { element: row.element }),
        ...(facts.includes("hp") && row.hp !== null && { hp: row.hp }),
        ...(facts.includes("retreatCost") && row.retreatCost !== null && { retreatCost: row.retreatCost }),
        ...(renamed && { name: row.name, nameReading: "", nameNote: `CSV（パック ${pack.id}）`, searchText: cardSearchText(row.name, print.nameEn) }),
      };
      // A row that only names the print (no picture, no facts, the same name) changes nothing.
      if (Object.keys(changes).length) await tx.update(cards).set(changes).where(eq(cards.id, print.id));
    }
    for (let i = 0; i < imported.length; i += BATCH) {
      const batch = imported.slice(i, i + BATCH).map((row) => ({
        id: importedCardId(pack.id, row.key),
        name: row.name,
        nameEn: row.nameEn,
        rarity: row.rarity,
        imageUrl: row.imageUrl,
        number: row.number,
        element: row.element,
        hp: row.hp,
        retreatCost: row.retreatCost,
        searchText: cardSearchText(row.name, row.nameEn || row.name),
        importPackId: pack.id,
        importKey: row.key,
      }));
      await tx
        .insert(cards)
        .values(batch)
        .onConflictDoUpdate({
          target: [cards.importPackId, cards.importKey],
          set: {
            name: sql`excluded.name`,
            nameEn: sql`excluded.name_en`,
            rarity: sql`excluded.rarity`,
            imageUrl: sql`excluded.image_url`,
            number: sql`excluded.number`,
            searchText: sql`excluded.search_text`,
            // A fact is overwritten only when the file has its column (an empty cell then makes it
            // unknown again); a file without the column leaves what an earlier import set.
            ...(facts.includes("element") && { element: sql`excluded.element` }),
            ...(facts.includes("hp") && { hp: sql`excluded.hp` }),
            ...(facts.includes("retreatCost") && { retreatCost: sql`excluded.retreat_cost` }),
          },
        });
      await tx
        .insert(cardPacks)
        .values(batch.map((card) => ({ cardId: card.id, packId: pack.id })))
        .onConflictDoNothing();
    }
  });
  invalidateCardIndex(db);
  return { count: rows.length };
}

