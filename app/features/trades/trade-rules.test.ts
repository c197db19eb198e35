import { describe, expect, it } from "vitest";
import { cardTradeabilityAt, closedPacksAt, tradeableRaritiesAt, upcomingChanges, type TradeRuleChange, type TradeRules } from "./trade-rules";

const change = (scope: "rarity" | "pack", target: string, tradeable: boolean, effectiveAt: string): TradeRuleChange => ({
  id: `${scope}-${target}-${effectiveAt}`,
  scope,
  target,
  tradeable,
  effectiveAt,
  note: "",
});

const rules: TradeRules = {
  rarityDefaults: { "◆": true, "☆☆": true, "☆☆☆": false, "👑": false },
  changes: [
    change("pack", "new-set", false, "2026-01-01T00:00:00Z"),
    change("rarity", "☆☆☆", true, "2026-03-01T00:00:00Z"),
    change("pack", "new-set", true, "2026-04-01T00:00:00Z"),
  ],
};

describe("trade rules at a moment", () => {
  it("follows each rarity's default until a change takes effect", () => {
    expect(cardTradeabilityAt(rules, { rarity: "☆☆", packIds: ["old"] }, "2026-02-01T00:00:00Z")).toEqual({ tradeable: true });
    expect(cardTradeabilityAt(rules, { rarity: "☆☆☆", packIds: ["old"] }, "2026-02-28T23:59:59Z")).toEqual({
      tradeable: false,
      scope: "rarity",
      target: "☆☆☆",
      until: "2026-03-01T00:00:00Z",
    });
    expect(cardTradeabilityAt(rules, { rarity: "☆☆☆", packIds: ["old"] }, "2026-03-01T00:00:00Z")).toEqual({ tradeable: true });
    // `??` reads as ☆☆ everywhere.
    expect(cardTradeabilityAt(rules, { rarity: "??", packIds: [] }, "2026-02-01T00:00:00Z").tradeable).toBe(true);
    // A rarity nobody declared is not tradeable.
    expect(cardTradeabilityAt(rules, { rarity: "PROMO", packIds: [] }, "2026-02-01T00:00:00Z").tradeable).toBe(false);
  });

  it("closes a pack until the date its reopening is on the books", () => {
    expect(cardTradeabilityAt(rules, { rarity: "◆", packIds: ["new-set"] }, "2025-12-31T23:59:59Z").tradeable).toBe(true);
    expect(cardTradeabilityAt(rules, { rarity: "◆", packIds: ["new-set"] }, "2026-02-01T00:00:00Z")).toEqual({
      tradeable: false,
      scope: "pack",
      target: "new-set",
      until: "2026-04-01T00:00:00Z",
    });
    expect(cardTradeabilityAt(rules, { rarity: "◆", packIds: ["new-set"] }, "2026-04-01T00:00:00Z").tradeable).toBe(true);
    expect(closedPacksAt(rules, "2026-02-01T00:00:00Z")).toEqual([{ packId: "new-set", until: "2026-04-01T00:00:00Z" }]);
    expect(closedPacksAt(rules, "2026-05-01T00:00:00Z")).toEqual([]);
  });

  it("a rarity rule wins over an open pack; a closed pack wins over an open rarity", () => {
    expect(cardTradeabilityAt(rules, { rarity: "👑", packIds: ["old"] }, "2026-05-01T00:00:00Z")).toMatchObject({ tradeable: false, scope: "rarity", until: null });
    expect(cardTradeabilityAt(rules, { rarity: "☆☆☆", packIds: ["new-set"] }, "2026-03-15T00:00:00Z")).toMatchObject({ tradeable: false, scope: "pack" });
  });

  it("lists the rarities tradeable at a moment and the changes still to come", () => {
    expect(tradeableRaritiesAt(rules, "2026-02-01T00:00:00Z")).toEqual(["◆", "☆☆"]);
    expect(tradeableRaritiesAt(rules, "2026-03-02T00:00:00Z")).toEqual(["◆", "☆☆", "☆☆☆"]);
    expect(upcomingChanges(rules, "2026-02-01T00:00:00Z").map((c) => c.target)).toEqual(["☆☆☆", "new-set"]);
  });
});
