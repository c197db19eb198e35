import { createHash } from "node:crypto";
import { CsvError, parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { cardPacks, cards } from "../../db/schema/index";
import { translate, type Locale, type Params } from "../../lib/i18n";
import { invalidateCardIndex } from "./card-index.server";
import { getPack } from "./cards.server";
import { cardSearchText } from "./catalogue.server";
import { cardsMessages } from "./messages";
import { rarityFromSpelling } from "./rarity";

type CardsMessageKey = keyof (typeof cardsMessages)["ja"];

// Limits of one import (issue 4): the whole real catalogue is ~3,300 rows and ~200 KB.
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
export const NAME_MAX_LENGTH = 100;
const URL_MAX_LENGTH = 2048;
/** How many bad rows an error names; the rest are counted. */
export const IMPORT_ISSUES_SHOWN = 5;
const BATCH = 500;

export type ImportIssueCode = "name_missing" | "name_too_long" | "rarity_missing" | "rarity_unknown" | "image_url_invalid" | "duplicate";
export type ImportIssue = { line: number; code: ImportIssueCode; value?: string; otherLine?: number };

export type ImportErrorCode =
  | "title_missing"
  | "csv_missing"
  | "unknown_pack"
  | "too_large"
  | "too_many_rows"
  | "no_rows"
  | "columns_missing"
  | "malformed"
  | "rows_invalid";

/** Why an import wrote nothing. The route turns it into a message in the user's language. */
export class CardImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    readonly details: { pack?: string; columns?: string[]; line?: number; issues?: ImportIssue[]; issueCount?: number } = {},
  ) {
    super(code);
  }
}

export { decodeCsvBytes } from "./csv-encoding";

export type ParsedCardRow = {
  line: number;
  name: string;
  nameEn: string;
  rarity: string;
  imageUrl: string;
  number: number | null;
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
};
type Columns = { name?: number; rarity?: number; imageUrl?: number; id?: number; number?: number; nameEn?: number };

const headerKey = (cell: string) => cell.replace(/^\uFEFF/, "").normalize("NFKC").replace(/[\s_-]+/g, "").toLowerCase();

/**
 * Parses and validates the CSV rows (no database access). Throws CardImportError for a file
 * that cannot be imported; every bad row is collected so the admin can fix them all at once.
 */
export function parseCardCsv(text: string): ParsedCardRow[] {
  if (!text.replace(/^\uFEFF/, "").trim()) throw new CardImportError("csv_missing");
  if (Buffer.byteLength(text, "utf8") > IMPORT_MAX_BYTES) throw new CardImportError("too_large");
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
      throw new CardImportError("malformed", { line });
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
  if (missing.length) throw new CardImportError("columns_missing", { columns: [...missing] });
  // Rows whose every cell is blank (e.g. ",,," left by Excel) are not cards.
  const cardRows = rows.filter((r) => r.record.some((cell) => cell.trim() !== ""));
  if (cardRows.length > IMPORT_MAX_ROWS) throw new CardImportError("too_many_rows");
  if (!cardRows.length) throw new CardImportError("no_rows");

  const issues: ImportIssue[] = [];
  const parsed: ParsedCardRow[] = [];
  const seen = new Map<string, number>();
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
    const explicitId = cell("id");
    const numberCell = cell("number").normalize("NFKC");
    const number = /^\d{1,6}$/.test(numberCell) ? Number(numberCell) : null;
    // Natural key: the file's own id when it has one, otherwise name + rarity.
    const key = explicitId ? `id:${explicitId}` : `name:${JSON.stringify([name, rarity ?? rawRarity])}`;
    if (!rowIssues.length) {
      const other = seen.get(key);
      if (other !== undefined) rowIssues.push({ line, code: "duplicate", otherLine: other });
      else seen.set(key, line);
    }
    if (rowIssues.length) {
      issues.push(...rowIssues);
      return;
    }
    parsed.push({ line, name, nameEn: cell("nameEn"), rarity: rarity!, imageUrl, number: number ?? index + 1, key });
  });
  if (issues.length) {
    const lines = new Set(issues.map((i) => i.line));
    throw new CardImportError("rows_invalid", { issues: issues.slice(0, IMPORT_ISSUES_SHOWN), issueCount: lines.size });
  }
  return parsed;
}

/** Card id of an imported row: stable for the natural key, safe in a URL. */
export function importedCardId(packId: string, key: string): string {
  return `${packId}~${createHash("sha256").update(JSON.stringify([packId, key])).digest("hex").slice(0, 16)}`;
}

export type CardImportInput = { title: string; csvData: string };

/**
 * SPEC.md §7 importCardsFromCSV: registers every row of the CSV as a card of the pack named
 * by `title`, all or nothing, in one transaction. Importing the same file again updates the
 * same cards (natural key pack + id column, or pack + name + rarity). Returns how many cards
 * were registered or updated.
 */
export async function importCardsFromCsv(db: Db, input: CardImportInput): Promise<{ count: number }> {
  const packId = input.title.trim();
  if (!packId) throw new CardImportError("title_missing");
  if (!input.csvData.trim()) throw new CardImportError("csv_missing");
  const rows = parseCardCsv(input.csvData);
  const pack = await getPack(db, packId);
  if (!pack) throw new CardImportError("unknown_pack", { pack: packId.slice(0, 50) });

  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((row) => ({
        id: importedCardId(pack.id, row.key),
        name: row.name,
        nameEn: row.nameEn,
        rarity: row.rarity,
        imageUrl: row.imageUrl,
        number: row.number,
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

/** The message shown for a failed import, in the admin's language (SPEC.md §8 wording). */
export function describeImportError(error: CardImportError, locale: Locale): string {
  const t = (key: CardsMessageKey, params?: Params) => translate(cardsMessages, locale, key, params);
  const { details } = error;
  switch (error.code) {
    case "title_missing":
      return t("errTitleMissing");
    case "csv_missing":
      return t("errCsvMissing");
    case "unknown_pack":
      return t("errUnknownPack", { pack: details.pack ?? "" });
    case "too_large":
      return t("errTooLarge", { max: IMPORT_MAX_BYTES / 1024 / 1024 });
    case "too_many_rows":
      return t("errTooManyRows", { max: IMPORT_MAX_ROWS.toLocaleString("en-US") });
    case "no_rows":
      return t("errNoRows");
    case "columns_missing":
      return t("errColumnsMissing", { columns: (details.columns ?? []).join(", ") });
    case "malformed":
      return t("errMalformed", { line: details.line ?? "?" });
    case "rows_invalid": {
      const issues = details.issues ?? [];
      const texts = issues.map((issue) => t(ISSUE_KEYS[issue.code], { line: issue.line, value: issue.value ?? "", otherLine: issue.otherLine ?? "", max: NAME_MAX_LENGTH }));
      const shownLines = new Set(issues.map((i) => i.line)).size;
      const more = (details.issueCount ?? shownLines) - shownLines;
      if (more > 0) texts.push(t("errMoreRows", { count: more }));
      return t("errRows", { count: details.issueCount ?? shownLines, issues: texts.join(" / ") });
    }
  }
}

const ISSUE_KEYS = {
  name_missing: "issueNameMissing",
  name_too_long: "issueNameTooLong",
  rarity_missing: "issueRarityMissing",
  rarity_unknown: "issueRarityUnknown",
  image_url_invalid: "issueImageUrlInvalid",
  duplicate: "issueDuplicate",
} as const satisfies Record<ImportIssueCode, CardsMessageKey>;
