import { useLocale, useT } from "#app/lib/i18n.tsx";
import { RARITIES } from "#app/lib/rarity.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { closedPacksAt, targetStateAt, upcomingChanges, type TradeRuleChange, type TradeRulesPageData } from "#app/features/trades/trade-rules.ts";
import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";

/** The rules in force, what is announced, and every change with its note: the rules page and the admin tab. */
export function TradeRulesSummary({ data, headingLevel = 2 }: { data: TradeRulesPageData; headingLevel?: 2 | 3 }) {
  const t = useT(tradeRulesMessages);
  const locale = useLocale();
  const H = headingLevel === 2 ? "h2" : "h3";
  const { rules, now } = data;
  const packName = new Map(data.packs.map((p) => [p.id, locale === "en" ? p.nameEn : p.name]));
  const rarityLabel = new Map(RARITIES.map((r) => [r.code, locale === "en" ? r.labelEn : r.labelJa]));
  const targetName = (c: Pick<TradeRuleChange, "scope" | "target">) => (c.scope === "pack" ? (packName.get(c.target) ?? c.target) : `${rarityLabel.get(c.target) ?? c.target}（${c.target}）`);
  const closed = closedPacksAt(rules, now);
  const upcoming = upcomingChanges(rules, now);
  const changeLine = (c: TradeRuleChange) => t(c.tradeable ? "changeTradeable" : "changeNotTradeable", { target: targetName(c), date: tokyoShortDateTime(c.effectiveAt, locale) });
  return (
    <div className="space-y-6">
      <section aria-labelledby="rules-rarity" className="space-y-2">
        <H id="rules-rarity" className="text-lg font-bold">
          {t("rarityHeading")}
        </H>
        <ul className="grid gap-1 sm:grid-cols-2" data-testid="rules-rarities">
          {data.rarityCodes.map((code) => {
            const state = targetStateAt(rules, "rarity", code, now);
            return (
              <li key={code} className="flex items-center justify-between gap-2 rounded border border-slate-200 bg-white px-3 py-1.5 text-sm" data-rarity={code}>
                <span>
                  <span className="text-rarity">{code}</span> {rarityLabel.get(code)}
                </span>
                <span className={state.tradeable ? "font-bold text-emerald-800" : "text-slate-700"}>
                  {state.tradeable ? t("rarityTradeable") : state.until ? t("rarityUntil", { date: tokyoShortDateTime(state.until, locale) }) : t("rarityNotTradeable")}
                </span>
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="rules-packs" className="space-y-2">
        <H id="rules-packs" className="text-lg font-bold">
          {t("packsHeading")}
        </H>
        {closed.length ? (
          <ul className="space-y-1 text-sm" data-testid="rules-closed-packs">
            {closed.map((p) => (
              <li key={p.packId}>
                {packName.get(p.packId) ?? p.packId}：{p.until ? t("packUntil", { date: tokyoShortDateTime(p.until, locale) }) : t("packUntilUnknown")}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{t("packsNone")}</p>
        )}
      </section>
      <section aria-labelledby="rules-upcoming" className="space-y-2">
        <H id="rules-upcoming" className="text-lg font-bold">
          {t("upcomingHeading")}
        </H>
        {upcoming.length ? (
          <ul className="space-y-1 text-sm" data-testid="rules-upcoming">
            {upcoming.map((c) => (
              <li key={c.id}>{changeLine(c)}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{t("upcomingNone")}</p>
        )}
      </section>
      <section aria-labelledby="rules-history" className="space-y-2">
        <H id="rules-history" className="text-lg font-bold">
          {t("historyHeading")}
        </H>
        {rules.changes.length ? (
          <ul className="space-y-1 text-sm" data-testid="rules-history">
            {[...rules.changes].reverse().map((c) => (
              <li key={c.id}>
                {changeLine(c)}
                {c.note ? <span className="text-slate-600">（{c.note}）</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{t("historyNone")}</p>
        )}
      </section>
    </div>
  );
}
