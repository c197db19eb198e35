/**
 * Rarity codes of the catalogue mapped to the display forms shown to players. `rank` orders
 * them highest first as SPEC.md §9 lists (crown, ☆☆☆, ☆☆, ☆, ◆◆◆◆ … ◆); shiny ranks sit where
 * the game prices them, PROMO last. `tradeable` is the default of SPEC.md §5's exclusion flag:
 * ☆☆, ☆☆☆, crown and PROMO cannot be offered.
 */
export type RarityDefinition = {
  code: string;
  sourceCode: string;
  labelJa: string;
  labelEn: string;
  rank: number;
  tradeable: boolean;
};

export const RARITIES: readonly RarityDefinition[] = [
  { code: "👑", sourceCode: "UR", labelJa: "クラウン", labelEn: "Crown Rare", rank: 100, tradeable: false },
  { code: "☆☆☆", sourceCode: "IM", labelJa: "☆3", labelEn: "Immersive Rare", rank: 90, tradeable: false },
  { code: "✦✦", sourceCode: "SSR", labelJa: "色違い✦2", labelEn: "Shiny Super Rare", rank: 85, tradeable: true },
  { code: "☆☆", sourceCode: "SR", labelJa: "☆2", labelEn: "Super Rare", rank: 80, tradeable: false },
  { code: "✦", sourceCode: "S", labelJa: "色違い✦1", labelEn: "Shiny", rank: 75, tradeable: true },
  { code: "☆", sourceCode: "AR", labelJa: "☆1", labelEn: "Art Rare", rank: 70, tradeable: true },
  { code: "◆◆◆◆", sourceCode: "RR", labelJa: "◆4", labelEn: "Double Rare", rank: 60, tradeable: true },
  { code: "◆◆◆", sourceCode: "R", labelJa: "◆3", labelEn: "Rare", rank: 50, tradeable: true },
  { code: "◆◆", sourceCode: "U", labelJa: "◆2", labelEn: "Uncommon", rank: 40, tradeable: true },
  { code: "◆", sourceCode: "C", labelJa: "◆1", labelEn: "Common", rank: 30, tradeable: true },
  { code: "PROMO", sourceCode: "PROMO", labelJa: "プロモ", labelEn: "Promo", rank: 10, tradeable: false },
];

const BY_SOURCE_CODE: Record<string, string> = {
  C: "◆",
  U: "◆◆",
  R: "◆◆◆",
  RR: "◆◆◆◆",
  AR: "☆",
  SR: "☆☆",
  SAR: "☆☆",
  IM: "☆☆☆",
  UR: "👑",
  S: "✦",
  SSR: "✦✦",
  PROMO: "PROMO",
};

/** The display form for a catalogue rarity code, or undefined when unknown. */
export function rarityFromCode(code: string): string | undefined {
  return BY_SOURCE_CODE[code.trim().toUpperCase()];
}

/** SPEC.md §3: rarity `??` is displayed as two stars. */
export function displayRarity(rarity: string): string {
  return rarity === "??" ? "☆☆" : rarity;
}
