import { describe, expect, it } from "vitest";
import { translate } from "#app/lib/i18n.tsx";
import { deckFieldErrors, DeckInputSchema } from "./decks.schema";
import { deckErrorMessages } from "./error-messages";

describe("deckFieldErrors", () => {
  it("answers a field of the wrong type with the catalogue's invalid-request text, never a crash", () => {
    for (const energyTypes of [null, true, 0, {}, "grass", [[]]]) {
      const parsed = DeckInputSchema.safeParse({ name: "デッキ", tier: 1, category: "deck-recipe", energyTypes });
      expect(parsed.success).toBe(false);
      const errors = deckFieldErrors(parsed.error!, (key, params) => translate(deckErrorMessages, "ja", key, params));
      expect(Object.values(errors).every((text) => typeof text === "string" && text.length > 0)).toBe(true);
    }
  });
});
