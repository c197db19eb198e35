/**
 * Where a card was printed, as players write it ("A1 004"): the same name exists in several sets
 * (ゼニガメ ◆ is in A1, A4b and B1a), so every chip that names a card also says which one.
 * Null when the catalogue has no set code for the card.
 */
export function cardPrint(card: { setCode?: string | null; number?: number | null }): string | null {
  if (!card.setCode) return null;
  return card.number === null || card.number === undefined ? card.setCode : `${card.setCode} ${String(card.number).padStart(3, "0")}`;
}
