import { parseInput } from "../../lib/validation";
import { DeckInputSchema, DeckUpdateSchema, FIELD_MAX, type DeckInput } from "./decks.schema";
import { deckErrorMessages } from "./error-messages";

export const NO_STORE = { "Cache-Control": "private, no-store" };

const DECK_INPUT = { messages: deckErrorMessages, fallback: "errInvalidRequest", max: FIELD_MAX } as const;

/** Parses a deck save; a broken rule throws a ValidationError naming each field (docs/product-rules.md §5 texts). */
export function parseDeckInput(body: unknown): DeckInput {
  return parseInput(body, DeckInputSchema, DECK_INPUT);
}

/** Parses a save of an existing deck: the deck and the revision it was loaded at. */
export function parseDeckUpdate(body: unknown): { input: DeckInput; revision: number } {
  const { revision, ...input } = parseInput(body, DeckUpdateSchema, DECK_INPUT);
  return { input, revision };
}
