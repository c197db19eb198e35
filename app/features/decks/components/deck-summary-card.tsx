import { Link } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoDate } from "#app/lib/tokyo-time.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import type { DeckSummary } from "#app/features/decks/types.ts";
import { DeckEyecatch } from "./deck-eyecatch";
import { EnergyIcons } from "./energy-icon";


export function TierBadge({ tier }: { tier: number }) {
  const t = useT(decksMessages);
  const colours = ["bg-amber-500 text-slate-900", "bg-sky-700 text-white", "bg-emerald-700 text-white", "bg-slate-600 text-white"];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-bold ${colours[tier - 1] ?? colours[3]}`}>{t("tierBadge", { tier })}</span>;
}

/**
 * One deck in a list: eyecatch (or its placeholder), name, tier badge, energy icons, updated date;
 * with `missing` (a signed-in player with a collection) 今作れます or あと N 枚.
 */
export function DeckSummaryCard({ deck, eager = false, missing = null }: { deck: DeckSummary; eager?: boolean; missing?: number | null }) {
  const t = useT(decksMessages);
  const locale = useLocale();
  return (
    <article className="h-full overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500">
      <Link to={`/deck-recipes/${encodeURIComponent(deck.slug)}`} className="block h-full">
        <DeckEyecatch name={deck.name} eyecatchUrl={deck.eyecatchUrl} energyTypes={deck.energyTypes} keyCards={deck.keyCards} eager={eager} />
        <div className="space-y-2 p-3">
          <div className="flex flex-wrap items-center gap-2">
            <TierBadge tier={deck.tier} />
            {deck.featured ? <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800">{t("featured")}</span> : null}
            <EnergyIcons types={deck.energyTypes} size={18} />
          </div>
          <h3 className="font-bold leading-snug">{deck.name}</h3>
          {missing !== null ? (
            <p data-testid="deck-missing" className={missing ? "text-sm font-bold text-red-800" : "text-sm font-bold text-green-800"}>
              {missing ? t("collectionMissingBadge", { count: missing }) : `✓ ${t("deckMissingNone")}`}
            </p>
          ) : null}
          <p className="text-xs text-slate-600">
            {t("updated")}: <time dateTime={deck.updatedAt}>{tokyoDate(deck.updatedAt, locale)}</time>
          </p>
        </div>
      </Link>
    </article>
  );
}
