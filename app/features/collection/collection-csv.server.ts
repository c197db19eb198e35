import { CsvError, parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { csvLine } from "#app/lib/csv.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { decodeCsvBytes } from "#app/features/cards/import.server.ts";
import { MAX_CHANGES } from "./collection.schema";
import { MAX_COUNT, writeCounts } from "./collection.server";
import { CollectionError } from "./errors";

/**
 * マイコレクション as a CSV file (set, number, count; names for people reading it): the export,
 * the account export's rows, and the all-or-nothing import.
 */

/** CSV imports a player may run per hour. */
export const IMPORTS_PER_HOUR = 20;
const importLimit = databaseLimit({ name: "collection-import", max: IMPORTS_PER_HOUR, window: "hour" });
export const CSV_MAX_BYTES = 1024 * 1024;
export const CSV_MAX_ROWS = 10_000;

/** The owned cards as rows (set, number, name, rarity, count), in set and number order: the export and the account export. */
export async function collectionRows(db: Queryable, userId: string): Promise<{ cardId: string; set: string; number: number | null; name: string; nameEn: string; rarity: string; count: number; updatedAt: string }[]> {
  const rows = await rowsOf<{ card_id: string; set_code: string | null; number: number | null; name: string; name_en: string; rarity: string; count: number; updated_at: Date | string }>(
    db,
    sql`select cc.card_id, c.set_code, c.number, c.name, c.name_en, c.rarity, cc.count, cc.updated_at
        from collection_cards cc join cards c on c.id = cc.card_id
        where cc.user_id = ${userId} order by c.set_code nulls last, c.number nulls last, cc.card_id`,
  );
  return rows.map((r) => ({
    cardId: r.card_id,
    set: r.set_code ?? "",
    number: r.number,
    name: r.name,
    nameEn: r.name_en,
    rarity: r.rarity,
    count: Number(r.count),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/**
 * CSVを書き出す: `set,number,name,rarity,count`, UTF-8 with a byte-order mark (Excel, which most
 * Japanese players open a CSV with, reads it as Shift_JIS without one), CRLF lines.
 */
export async function exportCollectionCsv(db: Queryable, userId: string): Promise<string> {
  const rows = await collectionRows(db, userId);
  const lines = [["set", "number", "name", "rarity", "count"], ...rows.map((r) => [r.set, r.number ?? "", r.name, r.rarity, r.count])];
  return `\uFEFF${lines.map(csvLine).join("\r\n")}\r\n`;
}

const headerKey = (cell: string) => cell.replace(/^\uFEFF/, "").normalize("NFKC").replace(/[\s_-]+/g, "").toLowerCase();
const HEADER_ALIASES: Record<string, "set" | "number" | "count"> = {
  set: "set",
  setcode: "set",
  セット: "set",
  number: "number",
  no: "number",
  番号: "number",
  count: "count",
  枚数: "count",
  所持数: "count",
};

/**
 * Parses a collection CSV (no database access): the changes in file order, or the first problem.
 * Cards are named by set and number; a number may be written 001 or 1.
 */
export type ParsedCollectionCsv = {
  /** The good lines before the first bad one (all of them when none is bad). */
  rows: { line: number; set: string; number: number; count: number }[];
  /** The first line the file itself gets wrong; an unknown card on an earlier line is named first by the import. */
  problem: CollectionError | null;
};

export function parseCollectionCsv(text: string): ParsedCollectionCsv {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) throw new CollectionError("csv_missing");
  if (Buffer.byteLength(text, "utf8") > CSV_MAX_BYTES) throw new CollectionError("csv_too_large", { max: CSV_MAX_BYTES / 1024 / 1024 });
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(body, { info: true, relax_column_count: true, skip_empty_lines: true, to: CSV_MAX_ROWS + 2 }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) throw new CollectionError("csv_malformed", { line: typeof error.lines === "number" ? error.lines : "?" });
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw new CollectionError("csv_missing");
  const columns: Partial<Record<"set" | "number" | "count", number>> = {};
  header.record.forEach((cell, i) => {
    const column = HEADER_ALIASES[headerKey(cell)];
    if (column && columns[column] === undefined) columns[column] = i;
  });
  const missing = (["set", "number", "count"] as const).filter((c) => columns[c] === undefined);
  if (missing.length) throw new CollectionError("csv_columns_missing", { columns: missing.join(", ") });
  const cardRows = rows.filter((r) => r.record.some((cell) => cell.trim() !== ""));
  if (cardRows.length > CSV_MAX_ROWS) throw new CollectionError("csv_too_many_rows", { max: CSV_MAX_ROWS.toLocaleString("en-US") });
  if (!cardRows.length) throw new CollectionError("csv_no_rows");
  const seen = new Map<string, number>();
  const parsed: ParsedCollectionCsv["rows"] = [];
  for (const { record, info } of cardRows) {
    try {
      parsed.push(parseLine(record, info.lines));
    } catch (error) {
      if (error instanceof CollectionError) return { rows: parsed, problem: error };
      throw error;
    }
  }
  return { rows: parsed, problem: null };

  function parseLine(record: string[], line: number) {
    const cell = (c: "set" | "number" | "count") => (record[columns[c]!] ?? "").normalize("NFKC").trim();
    const set = cell("set");
    if (!set) throw new CollectionError("csv_line_invalid", { line }, { key: "problemSetMissing" });
    const numberCell = cell("number");
    if (!/^\d{1,6}$/.test(numberCell)) throw new CollectionError("csv_line_invalid", { line }, { key: "problemBadNumber", value: numberCell.slice(0, 20) });
    const countCell = cell("count");
    const count = /^\d{1,2}$/.test(countCell) ? Number(countCell) : -1;
    if (count < 0 || count > MAX_COUNT) throw new CollectionError("csv_line_invalid", { line }, { key: "problemBadCount", value: countCell.slice(0, 20) });
    const number = Number(numberCell);
    const key = `${set.toUpperCase()}\u0000${number}`;
    const other = seen.get(key);
    if (other !== undefined) throw new CollectionError("csv_line_invalid", { line }, { key: "problemDuplicate", otherLine: other });
    seen.set(key, line);
    return { line, set, number, count };
  }
}

/**
 * CSVを読み込む: the file's bytes (UTF-8 with or without BOM, or Shift_JIS as Excel saves it, read
 * as the card import reads them), all or nothing: the first bad line is named and nothing is
 * written. Only the cards the file names change; a count of 0 removes the card.
 */
export async function importCollectionCsv(db: Db, userId: string, bytes: Uint8Array): Promise<{ count: number }> {
  if (bytes.byteLength > CSV_MAX_BYTES) throw new CollectionError("csv_too_large", { max: CSV_MAX_BYTES / 1024 / 1024 });
  const parsed = parseCollectionCsv(decodeCsvBytes(bytes));
  const cardRows = await rowsOf<{ id: string; set_code: string; number: number }>(
    db,
    sql`select id, set_code, number from cards where set_code is not null and number is not null and name <> '' and rarity <> '' order by id`,
  );
  const byPrint = new Map<string, string>();
  for (const c of cardRows) {
    const key = `${c.set_code.toUpperCase()}\u0000${c.number}`;
    if (!byPrint.has(key)) byPrint.set(key, c.id);
  }
  // The first bad line in file order: an unknown card before the file's own first mistake is named first.
  const changes = parsed.rows.map((row) => {
    const cardId = byPrint.get(`${row.set.toUpperCase()}\u0000${row.number}`);
    if (!cardId) throw new CollectionError("csv_line_invalid", { line: row.line }, { key: "problemUnknownCard", set: row.set.slice(0, 20), number: String(row.number) });
    return { cardId, count: row.count };
  });
  if (parsed.problem) throw parsed.problem;
  await db.transaction(async (tx) => {
    if (!(await importLimit.take(userId, tx))) throw new CollectionError("rate_limited");
    for (let i = 0; i < changes.length; i += MAX_CHANGES) await writeCounts(tx, userId, changes.slice(i, i + MAX_CHANGES));
  });
  return { count: changes.length };
}
