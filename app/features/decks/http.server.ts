import { describeAppError } from "../../lib/errors";
import { translate, type Locale } from "../../lib/i18n";
import { deckFieldErrors, DeckInputSchema, DeckUpdateSchema, type DeckInput } from "./decks.schema";
import { DeckError } from "./errors";
import { decksMessages, type DecksMessageKey } from "./messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

/** Parses a deck save; a broken rule throws DeckError("invalid_input") naming each field (SPEC.md §5 texts). */
export function parseDeckInput(body: unknown, locale: Locale): DeckInput {
  const parsed = DeckInputSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields = deckFieldErrors(parsed.error, (key, params) => translate(decksMessages, locale, key, params));
  throw new DeckError("invalid_input", {}, fields);
}

/** Parses a save of an existing deck: the deck and the revision it was loaded at. */
export function parseDeckUpdate(body: unknown, locale: Locale): { input: DeckInput; revision: number } {
  const parsed = DeckUpdateSchema.safeParse(body);
  if (parsed.success) {
    const { revision, ...input } = parsed.data;
    return { input, revision };
  }
  const fields = deckFieldErrors(parsed.error, (key, params) => translate(decksMessages, locale, key, params));
  throw new DeckError("invalid_input", {}, fields);
}

/**
 * The JSON answer of a DeckError: `{"error", "code", "fields"}` where `fields` maps a form
 * field to its message (the first one is also `error`).
 */
export function deckErrorResponse(error: DeckError, locale: Locale): Response {
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(error.fields)) {
    fields[field] = message in decksMessages.ja ? translate(decksMessages, locale, message as DecksMessageKey, error.params) : message;
  }
  const { status, code, message } = describeAppError(error, locale);
  const first = Object.values(fields)[0];
  return Response.json({ error: code === "invalid_input" && first ? first : message, code, fields }, { status, headers: NO_STORE });
}
