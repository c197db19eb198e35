/**
 * Rarity codes of the catalogue mapped to the display forms shown to players. `rank` orders
 * them highest first as docs/product-rules.md §9 lists (crown, ☆☆☆, ☆☆, ☆, ◆◆◆◆ … ◆); shiny ranks sit where
 * the game prices them, PROMO last. `tradeable` is the default of docs/product-rules.md §5's exclusion flag:
 * ☆☆☆, crown and PROMO cannot be offered; ☆☆ can since the game's 2025 update (docs/decisions/018,
 * where later changes are data: features/trades/trade-rules.ts).
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
  { code: "☆☆", sourceCode: "SR", labelJa: "☆2", labelEn: "Super Rare", rank: 80, tradeable: true },
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

/** docs/product-rules.md §3: rarity `??` is displayed as two stars. */
export function displayRarity(rarity: string): string {
  return rarity === "??" ? "☆☆" : rarity;
}

/** Display rank of a rarity (docs/product-rules.md §9), 0 for anything unknown. `??` ranks as ☆☆. */
export function rarityRank(rarity: string): number {
  const code = displayRarity(rarity);
  return RARITIES.find((r) => r.code === code)?.rank ?? 0;
}

/**
 * docs/product-rules.md §5 "card search by pack": the optional flag drops ☆☆, ☆☆☆, anything containing PROMO
 * and anything containing the crown. The same rule runs in SQL in cards.server.ts.
 */
export function isExcludedAsRare(rarity: string): boolean {
  const shown = displayRarity(rarity);
  return shown === "☆☆" || shown === "☆☆☆" || /PROMO/i.test(shown) || shown.includes("👑") || /crown|クラウン/i.test(shown);
}

// Spellings admins use in CSV files: ◇ for ◆, ★ for ☆, codes of the game's data sites,
// the label forms (◆3, ☆2) and words for the crown and promo cards.
const SPELLINGS: Record<string, string> = {
  CROWN: "👑",
  "CROWN RARE": "👑",
  クラウン: "👑",
  王冠: "👑",
  プロモ: "PROMO",
  P: "PROMO",
  "??": "☆☆",
  "？？": "☆☆",
};

/**
 * The display form for a rarity as written in an imported CSV cell (◆/◇, ☆/★, 👑/crown, ✦,
 * codes C … UR, S, SSR, PROMO, label forms such as ◆3 or ☆2), or undefined when unknown.
 */
export function rarityFromSpelling(input: string): string | undefined {
  const text = input.normalize("NFKC").replace(/\s+/g, " ").trim();
  if (!text) return undefined;
  const upper = text.toUpperCase();
  if (SPELLINGS[upper] ?? SPELLINGS[text]) return SPELLINGS[upper] ?? SPELLINGS[text];
  const fromCode = rarityFromCode(upper);
  if (fromCode) return fromCode;
  if (/^(?:👑)+$/u.test(text)) return "👑";
  const compact = text.replace(/\s/g, "");
  // Repeated symbols: ◆◆◆, ◇◇, ☆☆, ★★★, ✦✦.
  const repeated = /^([◆◇☆★✦])\1{0,3}$/u.exec(compact);
  const counted = /^([◆◇☆★✦])([1-4])$/u.exec(compact);
  const symbol = repeated?.[1] ?? counted?.[1];
  const n = repeated ? compact.length : counted ? Number(counted[2]) : 0;
  if (!symbol || n === 0) return undefined;
  const base = symbol === "◇" ? "◆" : symbol === "★" ? "☆" : symbol;
  const code = base.repeat(n);
  return RARITIES.some((r) => r.code === code) ? code : undefined;
}
