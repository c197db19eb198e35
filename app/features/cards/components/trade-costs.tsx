import { displayRarity } from "#app/lib/rarity.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { cardsMessages } from "#app/features/cards/messages.ts";

/**
 * What a trade of these rarities costs each player in shinedust (シャインダスト), one line per
 * rarity, so both know they can afford it before agreeing. Rarities the data prices at
 * nothing read 不要; a rarity with no known price is left out rather than guessed.
 */
export function TradeCosts({ rarities, costs }: { rarities: string[]; costs: Record<string, number> }) {
  const t = useT(cardsMessages);
  const locale = useLocale();
  const known = [...new Set(rarities.map(displayRarity))].filter((r) => costs[r] !== undefined);
  if (!known.length) return null;
  const number = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP");
  return (
    <div className="mt-2 text-sm" data-trade-costs>
      <p className="font-medium text-slate-700">{t("tradeCostHeading")}</p>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {known.map((rarity) => (
          <li key={rarity} data-trade-cost={rarity}>
            <span className="text-rarity">{rarity}</span>{" "}
            {costs[rarity] === 0 ? t("tradeCostFree") : t("tradeCostDust", { cost: number.format(costs[rarity]) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
