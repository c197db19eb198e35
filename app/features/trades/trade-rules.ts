import { displayRarity } from "#app/lib/rarity.ts";

/**
 * The game's trade rules, evaluated at a moment (docs/decisions/018). One module answers "may
 * this card be traded at time T?" for the offer form, the server gate, マッチ, the board's marks
 * and the public rules page, so they never disagree. Pure: the browser bundle uses it too; the
 * rules themselves come from trade-rules.server.ts (loadTradeRules).
 */

export const TRADE_RULE_SCOPES = ["rarity", "pack"] as const;
export type TradeRuleScope = (typeof TRADE_RULE_SCOPES)[number];

/** One administrator's change: `target` (a rarity code or a pack id) is tradeable or not from `effectiveAt`. */
export type TradeRuleChange = {
  id: string;
  scope: TradeRuleScope;
  target: string;
  tradeable: boolean;
  /** ISO time. */
  effectiveAt: string;
  note: string;
};

export type TradeRules = {
  /** The catalogue's default per rarity code (`rarities.tradeable`), before any change. */
  rarityDefaults: Record<string, boolean>;
  /** Every change, oldest effective first. */
  changes: TradeRuleChange[];
};

/** What the rules page and the admin tab show: the rules, the time they were read at, and pack names. */
export type TradeRulesPageData = { rules: TradeRules; now: string; packs: { id: string; name: string; nameEn: string }[]; rarityCodes: string[] };

export type TradeRuleCard = { rarity: string; packIds: readonly string[] };

export type Tradeability =
  | { tradeable: true }
  | {
      tradeable: false;
      /** What forbids it: the card's rarity, or one of its packs. */
      scope: TradeRuleScope;
      target: string;
      /** When a change already on the books makes it tradeable again (ISO), or null. */
      until: string | null;
    };

const time = (at: Date | string) => (typeof at === "string" ? Date.parse(at) : at.getTime());

/** Whether `target` is tradeable at `at`, and when a later change turns it tradeable again. */
export function targetStateAt(rules: TradeRules, scope: TradeRuleScope, target: string, at: Date | string): { tradeable: boolean; until: string | null } {
  const moment = time(at);
  let tradeable = scope === "rarity" ? (rules.rarityDefaults[target] ?? false) : true;
  let until: string | null = null;
  // Changes are sorted by effectiveAt: every change in force is seen before the first future one.
  for (const change of rules.changes) {
    if (change.scope !== scope || change.target !== target) continue;
    if (Date.parse(change.effectiveAt) <= moment) tradeable = change.tradeable;
    else if (!tradeable && until === null && change.tradeable) until = change.effectiveAt;
  }
  return { tradeable, until };
}

/**
 * May this card be traded at `at`? Its rarity must be tradeable then, and none of its packs may
 * be closed (a newly released set is not tradeable at first).
 */
export function cardTradeabilityAt(rules: TradeRules, card: TradeRuleCard, at: Date | string): Tradeability {
  const rarity = displayRarity(card.rarity);
  const byRarity = targetStateAt(rules, "rarity", rarity, at);
  if (!byRarity.tradeable) return { tradeable: false, scope: "rarity", target: rarity, until: byRarity.until };
  for (const packId of card.packIds) {
    const byPack = targetStateAt(rules, "pack", packId, at);
    if (!byPack.tradeable) return { tradeable: false, scope: "pack", target: packId, until: byPack.until };
  }
  return { tradeable: true };
}

export function isCardTradeableAt(rules: TradeRules, card: TradeRuleCard, at: Date | string): boolean {
  return cardTradeabilityAt(rules, card, at).tradeable;
}

/** The rarity codes tradeable at `at` (the rules page's summary). */
export function tradeableRaritiesAt(rules: TradeRules, at: Date | string): string[] {
  return Object.keys(rules.rarityDefaults).filter((code) => targetStateAt(rules, "rarity", code, at).tradeable);
}

/** Changes that take effect after `at`, soonest first (announced, not yet in force). */
export function upcomingChanges(rules: TradeRules, at: Date | string): TradeRuleChange[] {
  const moment = time(at);
  return rules.changes.filter((c) => Date.parse(c.effectiveAt) > moment);
}

/** Packs closed at `at`, with the date they reopen if one is on the books. */
export function closedPacksAt(rules: TradeRules, at: Date | string): { packId: string; until: string | null }[] {
  const packs = [...new Set(rules.changes.filter((c) => c.scope === "pack").map((c) => c.target))];
  return packs.flatMap((packId) => {
    const state = targetStateAt(rules, "pack", packId, at);
    return state.tradeable ? [] : [{ packId, until: state.until }];
  });
}
