import { hasVerifiedSetName, readCatalogue, type CatalogueCardRow, type CataloguePack } from "./catalogue.server";
import { checkReading, type NameCheck } from "./japanese-names";
import { romanisedToken } from "./romanisation";
import { isTrainerCard } from "#app/lib/card-face.ts";

export type Coverage = { japanese: number; total: number };

export type NamesReport = {
  cards: Coverage;
  /** Pokémon cards (not trainers): every one must have its Japanese name. */
  pokemon: Coverage;
  trainers: Coverage;
  packs: Coverage;
  /** Sets (expansions) by their Japanese name, and those still shown as code + English name. */
  sets: Coverage;
  englishSets: string[];
  /** How the Japanese names were verified against the catalogue's romanised tokens. */
  checks: Record<NameCheck, number>;
  /** Japanese names whose reading does not match the token (must stay empty). */
  unverified: { id: string; name: string; token: string | null }[];
  /** Names that stayed English, with how many cards carry each. */
  englishCards: { name: string; cards: number; trainer: boolean }[];
  englishPacks: string[];
  /** What the catalogue does not say about its Pokémon cards, per set: the data pages must not invent. */
  missingFacts: { setCode: string; pokemon: number; type: number; hp: number; retreat: number; stage: number }[];
};

/**
 * A pack name is Japanese once no English word is left in it (プロモA keeps its letter, and
 * ハイクラスパックex its ex mark, which Japanese names write in Latin letters as cards do).
 */
export function isJapanesePackName(pack: Pick<CataloguePack, "nameJa">): boolean {
  return !/[A-Za-z]{2,}/.test(pack.nameJa.replace(/(?<![A-Za-z])ex(?![A-Za-z])/g, ""));
}

/** A pack counts as named in Japanese when its set's name is verified and no English is left in it. */
function isNamedPack(pack: Pick<CataloguePack, "nameJa" | "setCode">): boolean {
  return hasVerifiedSetName(pack.setCode) && isJapanesePackName(pack);
}

export function isTrainer(card: Pick<CatalogueCardRow, "cardType">): boolean {
  return isTrainerCard({ cardType: card.cardType ?? null });
}

/** Coverage of verified Japanese names over the catalogue as it would be seeded. */
export function namesReport(catalogue = readCatalogue()): NamesReport {
  const checks: Record<NameCheck, number> = { exact: 0, outline: 0, known: 0 };
  const unverified: NamesReport["unverified"] = [];
  const english = new Map<string, { cards: number; trainer: boolean }>();
  let japanese = 0;
  let trainers = 0;
  let trainersJapanese = 0;
  for (const card of catalogue.cards) {
    const trainer = isTrainer(card);
    if (trainer) trainers++;
    if (card.name === card.nameEn) {
      const englishName = card.name ?? "";
      const entry = english.get(englishName) ?? { cards: 0, trainer };
      entry.cards++;
      english.set(englishName, entry);
      continue;
    }
    japanese++;
    if (trainer) trainersJapanese++;
    const token = card.imageFile ? romanisedToken(card.imageFile) : null;
    const check = token && card.nameReading ? checkReading(card.nameReading, token) : null;
    if (check) checks[check]++;
    else unverified.push({ id: String(card.id), name: String(card.name), token });
  }
  const missing = new Map<string, NamesReport["missingFacts"][number]>();
  for (const card of catalogue.cards) {
    if (isTrainer(card)) continue;
    const setCode = String(card.setCode ?? "");
    const row = missing.get(setCode) ?? { setCode, pokemon: 0, type: 0, hp: 0, retreat: 0, stage: 0 };
    row.pokemon++;
    if (!card.element) row.type++;
    if (card.hp == null) row.hp++;
    if (card.retreatCost == null) row.retreat++;
    if (!card.stage) row.stage++;
    missing.set(setCode, row);
  }
  const englishPacks = catalogue.packs.filter((p) => !isNamedPack(p)).map((p) => `${p.nameEn} (shown as ${p.nameJa})`);
  const sets = new Map(catalogue.packs.map((p) => [p.setCode, p]));
  const englishSets = [...sets.values()].filter((p) => !isNamedPack({ nameJa: p.setNameJa, setCode: p.setCode })).map((p) => `${p.setCode} ${p.setNameEn}`);
  return {
    cards: { japanese, total: catalogue.cards.length },
    pokemon: { japanese: japanese - trainersJapanese, total: catalogue.cards.length - trainers },
    trainers: { japanese: trainersJapanese, total: trainers },
    packs: { japanese: catalogue.packs.length - englishPacks.length, total: catalogue.packs.length },
    sets: { japanese: sets.size - englishSets.length, total: sets.size },
    englishSets,
    checks,
    unverified,
    englishCards: [...english].map(([name, v]) => ({ name, ...v })).sort((a, b) => b.cards - a.cards || a.name.localeCompare(b.name)),
    englishPacks,
    missingFacts: [...missing.values()].filter((r) => r.type || r.hp || r.retreat || r.stage),
  };
}

const percent = (c: Coverage) => `${c.japanese}/${c.total} (${((100 * c.japanese) / Math.max(1, c.total)).toFixed(1)}%)`;

/** The report as the `cards:names-report` command prints it. */
export function formatNamesReport(report: NamesReport): string {
  const lines = [
    "Japanese card names, verified against the catalogue's romanised image names",
    `cards     ${percent(report.cards)}`,
    `pokemon   ${percent(report.pokemon)}`,
    `trainers  ${percent(report.trainers)}`,
    `packs     ${percent(report.packs)}`,
    `sets      ${percent(report.sets)}`,
    `verified  ${report.checks.exact} sound by sound, ${report.checks.outline} by consonant outline, ${report.checks.known} known spelling differences`,
  ];
  if (report.unverified.length) {
    lines.push(`NOT VERIFIED (${report.unverified.length}):`);
    for (const u of report.unverified) lines.push(`  ${u.id} ${u.name} (${u.token ?? "no image name"})`);
  }
  lines.push(`Still English, cards (${report.englishCards.length} names):`);
  for (const e of report.englishCards) lines.push(`  ${e.name}${e.trainer ? " [trainer]" : ""} ×${e.cards}`);
  lines.push(`Packs without a verified Japanese name (${report.englishPacks.length}):`);
  for (const p of report.englishPacks) lines.push(`  ${p}`);
  lines.push(`Sets without a verified Japanese name (${report.englishSets.length}; a Japanese page shows the code alone, English mode the English name):`);
  for (const p of report.englishSets) lines.push(`  ${p}`);
  lines.push("Not in the catalogue (Pokémon cards without it; pages show nothing rather than a guess; cards registered by the CSV import can carry element, hp and retreat columns):");
  lines.push("  set      cards  type    HP  retreat  stage");
  for (const r of report.missingFacts) lines.push(`  ${r.setCode.padEnd(8)} ${String(r.pokemon).padStart(5)} ${String(r.type).padStart(5)} ${String(r.hp).padStart(5)} ${String(r.retreat).padStart(8)} ${String(r.stage).padStart(6)}`);
  return lines.join("\n");
}
