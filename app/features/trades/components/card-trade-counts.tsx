import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";

/** On a card's page: how many open offers give and want it, each linking to the filtered board. */
export function CardTradeCounts({ cardId, give, want }: { cardId: string; give: number; want: number }) {
  const t = useT(tradesMessages);
  const id = encodeURIComponent(cardId);
  return (
    <p className="mt-2 flex flex-wrap gap-3 text-sm" data-testid="card-trade-counts">
      <span className="sr-only">{t("cardTradeCounts")}: </span>
      <Link to={`/trades?give=${id}`} className="rounded-full border border-brand-700 px-3 py-0.5 font-bold text-brand-800 hover:bg-brand-50">
        {t("cardGiveCount", { count: give })}
      </Link>
      <Link to={`/trades?want=${id}`} className="rounded-full border border-sky-700 px-3 py-0.5 font-bold text-sky-800 hover:bg-sky-50">
        {t("cardWantCount", { count: want })}
      </Link>
    </p>
  );
}
