import { parseInput } from "../../lib/input.server";
import type { Locale } from "../../lib/i18n";
import { DeckInputSchema, DeckUpdateSchema, FIELD_MAX, type DeckInput } from "./decks.schema";
import { decksMessages } from "./messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

const DECK_INPUT = { messages: decksMessages, fallback: "errInvalidRequest", max: FIELD_MAX } as const;

/** Parses a deck save; a broken rule throws a ValidationError naming each field (SPEC.md §5 texts). */
export function parseDeckInput(body: unknown, locale: Locale): DeckInput {
  return parseInput(body, DeckInputSchema, locale, DECK_INPUT);
}

/** Parses a save of an existing deck: the deck and the revision it was loaded at. */
export function parseDeckUpdate(body: unknown, locale: Locale): { input: DeckInput; revision: number } {
  const { revision, ...input } = parseInput(body, DeckUpdateSchema, locale, DECK_INPUT);
  return { input, revision };
}
