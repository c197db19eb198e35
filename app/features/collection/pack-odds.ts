import { rarityFromCode } from "#app/lib/rarity.ts";

/**
 * どのパックを引く？ — the arithmetic, without data access (docs/decisions/042-pack-odds.md).
 *
 * One opening of a pack is one of its kinds (通常パック, レアパック, +1 パック …), chosen by the
 * kinds' appearance rates. Each slot of a kind gives one card: a rarity by the slot's rates, then
 * any card of that rarity in the pack with equal chance. Slots are treated as independent.
 */

/** A slot: percent per display rarity (◆, ☆☆ …). */
export type SlotRates = ReadonlyMap<string, number>;
/** One kind of a pack's openings: how often it appears (any scale) and its slots. */
export type PackKind = { appearanceRate: number; slots: readonly SlotRates[] };
/** Per display rarity: the pack's cards of that rarity and how many of them the player lacks. */
export type PackPool = ReadonlyMap<string, { total: number; missing: number }>;
export type PackOdds = { /** P(at least one new card in one opening), 0..1. */ atLeastOne: number; /** Expected new cards in one opening. */ expected: number };

/**
 * A slot's rates as the catalogue writes them (C, U … UR codes) in display rarities. A foil code
 * (CF, UF, RF) is its rarity's card with a foil finish, not another print: it counts as that rarity.
 * A code no rarity stands for gives no card the player could be missing.
 */
export function displaySlotRates(source: Readonly<Record<string, number>>): SlotRates {
  const rates = new Map<string, number>();
  for (const [code, percent] of Object.entries(source)) {
    const rarity = rarityFromCode(code) ?? (/F$/i.test(code) ? rarityFromCode(code.slice(0, -1)) : undefined);
    if (rarity) rates.set(rarity, (rates.get(rarity) ?? 0) + percent);
  }
  return rates;
}

/** The chance that one slot gives a card the player lacks: Σ over rarities of rate × missing / total. */
export function slotNewChance(slot: SlotRates, pool: PackPool): number {
  let chance = 0;
  for (const [rarity, percent] of slot) {
    const cards = pool.get(rarity);
    if (cards && cards.total > 0) chance += (percent / 100) * (cards.missing / cards.total);
  }
  return Math.min(1, chance);
}

/**
 * One opening's odds: per kind, P(≥1 new) = 1 − Π(1 − p_slot) and E[new] = Σ p_slot (a card
 * pulled twice in one opening counts twice: the slots are independent draws); the kinds mixed
 * by their appearance rates, normalised to sum to one.
 */
export function packOdds(kinds: readonly PackKind[], pool: PackPool): PackOdds {
  const weight = kinds.reduce((sum, k) => sum + Math.max(0, k.appearanceRate), 0);
  if (weight <= 0) return { atLeastOne: 0, expected: 0 };
  let atLeastOne = 0;
  let expected = 0;
  for (const kind of kinds) {
    const share = Math.max(0, kind.appearanceRate) / weight;
    const chances = kind.slots.map((slot) => slotNewChance(slot, pool));
    atLeastOne += share * (1 - chances.reduce((none, p) => none * (1 - p), 1));
    expected += share * chances.reduce((sum, p) => sum + p, 0);
  }
  return { atLeastOne, expected };
}
