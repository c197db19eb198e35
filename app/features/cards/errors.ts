import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { translate, type Locale, type Params } from "#app/lib/i18n.tsx";
import { cardAdminMessages, type CardAdminMessageKey } from "./admin-messages";

/** Limits of the import's optional HP and retreat columns (named in their messages). */
export const HP_MAX = 500;
export const RETREAT_MAX = 5;

/**
 * Every way a card request or import can fail: HTTP status and the catalogue key of its message.
 * `unknown_pack_name` and `invalid_cursor` are the card API's fixed texts (docs/product-rules.md §7).
 */
const CARD_ERRORS = {
  not_found: [404, "notFound"],
  unknown_pack_name: [400, "apiUnknownPack"],
  invalid_cursor: [400, "apiInvalidCursor"],
  invalid_request: [400, "errInvalidRequest"],
  title_missing: [422, "errTitleMissing"],
  csv_missing: [422, "errCsvMissing"],
  unknown_pack: [400, "errUnknownPack"],
  too_large: [413, "errTooLarge"],
  too_many_rows: [422, "errTooManyRows"],
  no_rows: [422, "errNoRows"],
  columns_missing: [422, "errColumnsMissing"],
  malformed: [422, "errMalformed"],
  rows_invalid: [422, "errRows"],
  // カタログ更新 (catalogue-upload.server.ts) and the admin's card edits
  catalogue_files_missing: [400, "errCatalogueFilesMissing"],
  catalogue_file_invalid: [400, "errCatalogueFileInvalid"],
  catalogue_stale: [409, "errCatalogueStale"],
  catalogue_hold_invalid: [400, "errCatalogueHoldInvalid"],
  name_invalid: [400, "errNameInvalid"],
  card_not_imported: [400, "errCardNotImported"],
  card_referenced: [409, "errCardReferenced"],
  print_ambiguous: [422, "errPrintAmbiguous"],
  pack_invalid: [400, "errPackInvalid"],
  pack_exists: [409, "errPackExists"],
} as const satisfies ErrorTable<CardAdminMessageKey>;

export type CardErrorCode = keyof typeof CARD_ERRORS;

/** A card request or import that was refused (docs/decisions/009). */
export class CardError<C extends CardErrorCode = CardErrorCode> extends AppError<C> {
  constructor(code: C, params?: Params) {
    super(cardAdminMessages, CARD_ERRORS, code, params);
  }
}

export type ImportIssueCode = "name_missing" | "name_too_long" | "rarity_missing" | "rarity_unknown" | "image_url_invalid" | "type_unknown" | "hp_invalid" | "retreat_invalid" | "duplicate";
export type ImportIssue = { line: number; code: ImportIssueCode; value?: string; otherLine?: number };
export type ImportErrorCode = Exclude<CardErrorCode, "unknown_pack_name" | "invalid_cursor" | "invalid_request">;

const ISSUE_KEYS = {
  name_missing: "issueNameMissing",
  name_too_long: "issueNameTooLong",
  rarity_missing: "issueRarityMissing",
  rarity_unknown: "issueRarityUnknown",
  image_url_invalid: "issueImageUrlInvalid",
  type_unknown: "issueTypeUnknown",
  hp_invalid: "issueHpInvalid",
  retreat_invalid: "issueRetreatInvalid",
  duplicate: "issueDuplicate",
} as const satisfies Record<ImportIssueCode, CardAdminMessageKey>;

/**
 * Why an import wrote nothing (docs/product-rules.md §8 wording). `rows_invalid` names the first bad rows,
 * each in the reader's language, and counts the rest.
 */
export class CardImportError extends CardError<ImportErrorCode> {
  constructor(
    code: ImportErrorCode,
    params: Params = {},
    readonly details: { issues?: ImportIssue[]; issueCount?: number; nameMax?: number } = {},
  ) {
    super(code, params);
  }

  override text(locale: Locale): string {
    if (this.code !== "rows_invalid") return super.text(locale);
    const t = (key: CardAdminMessageKey, params?: Params) => translate(cardAdminMessages, locale, key, params);
    const issues = this.details.issues ?? [];
    const texts = issues.map((issue) => t(ISSUE_KEYS[issue.code], { line: issue.line, value: issue.value ?? "", otherLine: issue.otherLine ?? "", max: this.details.nameMax ?? "", hpMax: HP_MAX, retreatMax: RETREAT_MAX }));
    const shownLines = new Set(issues.map((i) => i.line)).size;
    const count = this.details.issueCount ?? shownLines;
    if (count > shownLines) texts.push(t("errMoreRows", { count: count - shownLines }));
    return t("errRows", { count, issues: texts.join(" / ") });
  }
}
