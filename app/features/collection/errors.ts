import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { translate, type Locale, type Params } from "#app/lib/i18n.tsx";
import { collectionMessages, type CollectionMessageKey } from "./messages";

export const COLLECTION_ERRORS = {
  card_not_found: [404, "errorCardNotFound"],
  count_out_of_range: [400, "errorCountOutOfRange"],
  too_many_changes: [400, "errorTooManyChanges"],
  rate_limited: [429, "errorTooFast"],
  unknown_set: [404, "errorUnknownSet"],
  unknown_rarity: [400, "errorUnknownRarity"],
  /** A set named in the trade settings that the catalogue does not hold (a bad request, not a missing page). */
  unknown_want_set: [400, "errorUnknownSet"],
  not_opted_in: [403, "errorNotOptedIn"],
  unknown_partner: [404, "errorUnknownPartner"],
  pair_not_available: [409, "errorPairNotAvailable"],
  /** The same proposal is being made on another server instance this minute (a double tap). */
  proposal_in_progress: [409, "errorProposalInProgress"],
  invalid: [400, "errorInvalid"],
  csv_missing: [400, "errorCsvMissing"],
  csv_too_large: [413, "errorCsvTooLarge"],
  csv_too_many_rows: [400, "errorCsvTooManyRows"],
  csv_columns_missing: [400, "errorCsvColumns"],
  csv_malformed: [400, "errorCsvMalformed"],
  csv_no_rows: [400, "errorCsvNoRows"],
  csv_line_invalid: [400, "errorCsvLine"],
} as const satisfies ErrorTable<CollectionMessageKey>;

export type CollectionErrorCode = keyof typeof COLLECTION_ERRORS;

/** What is wrong with one CSV line (the first bad line is named; nothing is written). */
export type CsvProblem =
  | { key: "problemUnknownCard"; set: string; number: string }
  | { key: "problemBadNumber"; value: string }
  | { key: "problemBadCount"; value: string }
  | { key: "problemDuplicate"; otherLine: number }
  | { key: "problemSetMissing" };

/** A collection rule a request broke (docs/decisions/009). */
export class CollectionError extends AppError<CollectionErrorCode> {
  constructor(
    code: CollectionErrorCode,
    params?: Params,
    readonly problem?: CsvProblem,
  ) {
    super(collectionMessages, COLLECTION_ERRORS, code, params);
  }

  override text(locale: Locale): string {
    if (this.code !== "csv_line_invalid" || !this.problem) return super.text(locale);
    const { key, ...params } = this.problem;
    const problem = translate(collectionMessages, locale, key, params as Params);
    return translate(collectionMessages, locale, "errorCsvLine", { ...this.params, problem });
  }
}
