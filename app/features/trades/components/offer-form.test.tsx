import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { LocaleContext, type Locale } from "#app/lib/i18n.tsx";
import { OfferForm, type ChosenCard } from "./offer-form";

const rules = { rarityDefaults: { "◆": true }, changes: [] };
// ゼニガメ ◆ is printed in A1 and B1a: both chosen, each must be told apart.
const give: ChosenCard[] = [
  { cardId: "A1-053", name: "ゼニガメ", nameEn: "Squirtle", rarity: "◆", count: 1, setCode: "A1", number: 53 },
  { cardId: "B1a-017", name: "ゼニガメ", nameEn: "Squirtle", rarity: "◆", count: 2, setCode: "B1a", number: 17 },
];
const want: ChosenCard[] = [{ cardId: "A1-033", name: "ヒトカゲ", nameEn: "Charmander", rarity: "◆", count: 1 }];

function render(locale: Locale, tradeCosts?: Record<string, number>, cards = { give, want }): string {
  const Page = () => createElement(OfferForm, { mode: "edit", initialGive: cards.give, initialWant: cards.want, rules, now: "2026-11-28T00:00:00.000Z", tradeCosts });
  const Stub = createRoutesStub([{ path: "/trades/new", Component: Page }]);
  return renderToStaticMarkup(createElement(LocaleContext.Provider, { value: locale }, createElement(Stub, { initialEntries: ["/trades/new"] })));
}

describe("the offer form's chosen cards", () => {
  it("show the set and number of each print, in its labels and the pairs line too", () => {
    const html = render("ja");
    expect(html.match(/data-testid="chosen-card-print">([^<]+)</g)).toEqual(['data-testid="chosen-card-print">A1 053<', 'data-testid="chosen-card-print">B1a 017<']);
    expect(html).toContain('aria-label="ゼニガメ（A1 053）を外す"');
    expect(html).toContain('aria-label="ゼニガメ（B1a 017）を外す"');
    expect(html).toContain(">ゼニガメ（B1a 017）の枚数<");
    expect(html).toContain("◆: 譲 ゼニガメ（A1 053）・ゼニガメ（B1a 017） ⇄ 求 ヒトカゲ<");
  });

  it("leave the print out where the catalogue has none, and write it the English way in English", () => {
    const html = render("en");
    expect(html).toContain('aria-label="Remove Squirtle (A1 053)"');
    expect(html).toContain('aria-label="Remove Charmander"');
    expect(html.match(/chosen-card-print/g)).toHaveLength(2);
  });
});

describe("the offer form's trade cost", () => {
  it("says the shinedust each player needs per rarity chosen, from the rarities data", () => {
    const rare: ChosenCard[] = [{ cardId: "A1-004", name: "フシギバナex", nameEn: "Venusaur ex", rarity: "◆◆◆◆", count: 1 }];
    const other: ChosenCard[] = [{ cardId: "A1-034", name: "リザードンex", nameEn: "Charizard ex", rarity: "◆◆◆◆", count: 1 }];
    const html = render("ja", { "◆": 0, "◆◆◆◆": 5000 }, { give: rare, want: other });
    expect(html).toContain("トレードに必要なシャインダスト（お互いに）");
    expect(html).toMatch(/data-trade-cost="◆◆◆◆"><span class="text-rarity">◆◆◆◆<\/span> 5,000</);
    expect(render("ja", { "◆": 0 })).toMatch(/data-trade-cost="◆"><span class="text-rarity">◆<\/span> 不要</);
  });

  it("shows nothing for a rarity the data gives no price", () => {
    expect(render("ja", {})).not.toContain("data-trade-cost");
  });
});

describe("the offer form against the poster's collection", () => {
  const renderOwned = (locale: Locale, ownedCounts: Record<string, number> | null) => {
    const Page = () => createElement(OfferForm, { mode: "new", initialGive: give, initialWant: want, rules, now: "2026-11-28T00:00:00.000Z", ownedCounts });
    const Stub = createRoutesStub([{ path: "/trades/new", Component: Page }]);
    return renderToStaticMarkup(createElement(LocaleContext.Provider, { value: locale }, createElement(Stub, { initialEntries: ["/trades/new"] })));
  };
  const warnings = (html: string) => [...html.matchAll(/data-testid="give-not-owned">([^<]+)</g)].map((m) => m[1]);

  it("warns on each 譲 card the collection holds fewer of than offered, and never on 求 cards", () => {
    // A1-053 ×1 owned once: fine; B1a-017 ×2 owned once: short; ヒトカゲ (求) not owned: nothing.
    expect(warnings(renderOwned("ja", { "A1-053": 1, "B1a-017": 1 }))).toEqual(["コレクションでは1枚しか持っていません"]);
    expect(warnings(renderOwned("ja", { "A1-033": 3 }))).toEqual(["コレクションでは持っていないカードです", "コレクションでは持っていないカードです"]);
    expect(warnings(renderOwned("en", { "A1-033": 3 }))).toEqual(["You do not own this card in your collection", "You do not own this card in your collection"]);
  });

  it("says nothing to a player without a collection", () => {
    expect(warnings(renderOwned("ja", null))).toEqual([]);
  });
});
