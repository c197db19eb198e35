import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { translate, type Locale, type Params } from "#app/lib/i18n.tsx";
import { deckErrorMessages, type DeckErrorMessageKey } from "./error-messages";

/** Every rule a deck request can break: HTTP status and the catalogue key of its message. */
const DECK_ERRORS = {
  not_found: [404, "errNotFound"],
  invalid_request: [400, "errInvalidRequest"],
  invalid_input: [400, "errInvalidRequest"],
  slug_taken: [409, "errSlugTaken"],
  conflict: [409, "errConflict"],
  illegal_deck: [422, "errIllegalDeck"],
  slug_invalid: [400, "errSlugInvalid"],
  unknown_card: [400, "errUnknownCard"],
  related_unknown: [400, "errRelatedUnknown"],
  invalid_cursor: [400, "errInvalidCursor"],
  no_collection: [409, "errNoCollection"],
} as const satisfies ErrorTable<DeckErrorMessageKey>;

export type DeckErrorCode = keyof typeof DECK_ERRORS;

/** A rule a deck request broke (docs/decisions/009). `fields` names the form fields at fault. */
export class DeckError extends AppError<DeckErrorCode> {
  constructor(
    code: DeckErrorCode,
    params?: Params,
    readonly fields: Record<string, string> = {},
  ) {
    super(deckErrorMessages, DECK_ERRORS, code, params);
  }

  override fieldTexts(locale: Locale): Record<string, string> {
    const texts: Record<string, string> = {};
    for (const [field, key] of Object.entries(this.fields)) texts[field] = key in deckErrorMessages.ja ? translate(deckErrorMessages, locale, key as DeckErrorMessageKey, this.params) : key;
    return texts;
  }
}
