/**
 * The deck list as plain text in the community format players paste between sites and apps,
 * with Japanese section names on this site (ポケモン / トレーナーズ / その他) and the English ones
 * (Pokémon / Trainer / Other) for tools that read only those; the card lines are the same:
 *
 *   ポケモン: 12
 *   2 ピカチュウex A1 96
 *   …
 *
 *   トレーナーズ: 8
 *   2 博士の研究 P-A 7
 *
 * Lines are `<count> <name> <set code> <number>`; promo sets are written P-A / P-B as the game
 * prints them. Parsing is pure (the editor and the server share it); matching lines to cards
 * needs the catalogue and lives in the service.
 */

export type TextCard = { name: string; setCode: string | null; number: number | null; count: number; kind: "pokemon" | "trainer" | null };

const PROMO = /^PROMO-([A-Z])$/i;

/** PROMO-A → P-A (what players type); other set codes unchanged. */
export function printedSetCode(setCode: string): string {
  const promo = PROMO.exec(setCode);
  return promo ? `P-${promo[1].toUpperCase()}` : setCode;
}

function line(card: TextCard): string {
  const where = card.setCode && card.number !== null ? ` ${printedSetCode(card.setCode)} ${card.number}` : "";
  return `${card.count} ${card.name}${where}`;
}

export type DeckTextFormat = "ja" | "en";

const SECTION_NAMES: Record<DeckTextFormat, { pokemon: string; trainer: string; other: string }> = {
  ja: { pokemon: "ポケモン", trainer: "トレーナーズ", other: "その他" },
  en: { pokemon: "Pokémon", trainer: "Trainer", other: "Other" },
};

/**
 * The export text: Pokémon, then trainers; cards whose type the catalogue does not know follow
 * under その他 / Other rather than being put in a section they may not belong to.
 */
export function deckToText(cards: readonly TextCard[], format: DeckTextFormat = "ja"): string {
  const names = SECTION_NAMES[format];
  const sections: [string, TextCard[]][] = [
    [names.pokemon, cards.filter((c) => c.kind === "pokemon")],
    [names.trainer, cards.filter((c) => c.kind === "trainer")],
    [names.other, cards.filter((c) => c.kind === null)],
  ];
  return sections
    .filter(([title, list]) => list.length > 0 || title !== names.other)
    .map(([title, list]) => [`${title}: ${list.reduce((sum, c) => sum + c.count, 0)}`, ...list.map(line)].join("\n"))
    .join("\n\n")
    .concat("\n");
}

export type ParsedLine = { line: number; text: string; count: number; name: string; setCode: string | null; number: number | null };
export type ParsedDeckText = { lines: ParsedLine[]; invalid: { line: number; text: string }[] };

const HEADER = /^(pok[eé]mon|trainers?|energy|other|ポケモン|トレーナーズ?|グッズ|サポート|その他)\s*[:：]?\s*\d*\s*$/i;
const CARD_LINE = /^(\d{1,3})\s*[x×]?\s+(.+?)(?:\s+([A-Za-z][A-Za-z0-9]{0,5}(?:-[A-Za-z0-9]{1,5})?)\s+(\d{1,4}))?$/;
export const IMPORT_MAX_LINES = 200;

/** Reads pasted text: card lines, with the lines that are neither a card nor a section header. */
export function parseDeckText(text: string): ParsedDeckText {
  const result: ParsedDeckText = { lines: [], invalid: [] };
  const rows = text.replace(/\r\n?/g, "\n").split("\n").slice(0, IMPORT_MAX_LINES);
  rows.forEach((raw, index) => {
    const trimmed = raw.normalize("NFKC").replace(/\s+/g, " ").trim();
    if (!trimmed || HEADER.test(trimmed)) return;
    const match = CARD_LINE.exec(trimmed);
    const count = match ? Number(match[1]) : 0;
    if (!match || count < 1) {
      result.invalid.push({ line: index + 1, text: raw.trim() });
      return;
    }
    result.lines.push({
      line: index + 1,
      text: raw.trim(),
      count,
      name: match[2].trim(),
      setCode: match[3] ?? null,
      number: match[4] ? Number(match[4]) : null,
    });
  });
  return result;
}

/** P-A / PROMO-A / promo-a → PROMO-A; a1a → A1a is left to the caller's case-insensitive lookup. */
export function catalogueSetCode(printed: string): string {
  const promo = /^P(?:ROMO)?-([A-Z])$/i.exec(printed);
  return promo ? `PROMO-${promo[1].toUpperCase()}` : printed;
}
