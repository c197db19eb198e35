import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "#app/db/client.server.ts";
import { displayRarity, rarityRank } from "#app/lib/rarity.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { VENDORED_CATALOGUE_DIR } from "#app/features/cards/catalogue-source.server.ts";
import { ownedCounts } from "./collection.server";
import { displaySlotRates, packOdds, type PackKind } from "./pack-odds";
import { PullRatesSchema } from "./pull-rates.schema";

/** Each set's pack kinds in display rarities, by set code. */
export type SetPullRates = ReadonlyMap<string, PackKind[]>;

const PULL_RATES_FILE = path.join(VENDORED_CATALOGUE_DIR, "pokemon-tcg-pocket-database", "dist", "pullRates.json");

/** The vendored pull rates in display rarities (read with the catalogue: docs/decisions/042-pack-odds.md). */
export function readPullRates(file = PULL_RATES_FILE): SetPullRates {
  if (!existsSync(file)) return new Map();
  const source = PullRatesSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  return new Map(
    Object.entries(source).map(([setCode, kinds]) => [
      setCode,
      Object.values(kinds).map((kind) => ({
        appearanceRate: kind.appearance_rate,
        slots: Object.entries(kind.slots)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, rates]) => displaySlotRates(rates)),
      })),
    ]),
  );
}

let vendored: SetPullRates | null = null;
/** The vendored file, read once per process (it changes only with a release). */
function vendoredPullRates(): SetPullRates {
  vendored ??= readPullRates();
  return vendored;
}

/** One pack of the ranking: its odds and the cards it holds that the player lacks, per rarity. */
export type PackChoice = {
  packId: string;
  nameJa: string;
  nameEn: string;
  /** Cards of the pack the player lacks, and the pack's listable cards. */
  missing: number;
  total: number;
  /** Per rarity, ◆ first and 👑 last: the pack's cards of that rarity the player lacks. */
  missingByRarity: { rarity: string; count: number }[];
  atLeastOne: number;
  expected: number;
};

/**
 * どのパックを引く？: every pack whose set has pull rates, ranked by the expected number of cards
 * the player lacks in one opening (then the chance of at least one, then the catalogue's order).
 * A pack's cards are the cards the catalogue links to it (a card of every pack of its set counts
 * in each), from the in-memory card index; the player's side is one read of what they own.
 */
export async function packChoices(db: Db, userId: string, rates: SetPullRates = vendoredPullRates()): Promise<{ packs: PackChoice[]; withoutRates: number }> {
  const [index, owned] = await Promise.all([cardIndex(db), ownedCounts(db, userId)]);
  const packs: (PackChoice & { sortOrder: number })[] = [];
  let withoutRates = 0;
  for (const pack of index.packs.values()) {
    const kinds = rates.get(pack.setCode);
    const cards = index.byPack.get(pack.id) ?? [];
    if (!cards.length) continue;
    if (!kinds) {
      withoutRates++;
      continue;
    }
    const pool = new Map<string, { total: number; missing: number }>();
    for (const card of cards) {
      // Slot rates are keyed by the shown rarity (a legacy ?? is ☆☆).
      const rarity = displayRarity(card.rarity);
      const row = pool.get(rarity) ?? { total: 0, missing: 0 };
      row.total++;
      if (!owned.has(card.id)) row.missing++;
      pool.set(rarity, row);
    }
    const missingByRarity = [...pool]
      .filter(([, r]) => r.missing > 0)
      .sort(([a], [b]) => rarityRank(a) - rarityRank(b))
      .map(([rarity, r]) => ({ rarity, count: r.missing }));
    packs.push({
      packId: pack.id,
      nameJa: pack.nameJa,
      nameEn: pack.nameEn,
      missing: missingByRarity.reduce((sum, r) => sum + r.count, 0),
      total: cards.length,
      missingByRarity,
      ...packOdds(kinds, pool),
      sortOrder: pack.sortOrder,
    });
  }
  packs.sort((a, b) => b.expected - a.expected || b.atLeastOne - a.atLeastOne || a.sortOrder - b.sortOrder);
  return { packs: packs.map(({ sortOrder: _sortOrder, ...pack }) => pack), withoutRates };
}
