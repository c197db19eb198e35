import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";

/**
 * An empty board: with filters set, nothing matches them; with none, the board simply has no
 * offers yet, and the reader is invited to post the first one rather than told nothing matched.
 */
export function BoardEmpty({ filtered }: { filtered: boolean }) {
  const t = useT(tradesMessages);
  if (filtered) return <p className="rounded-lg bg-white p-4 text-slate-700">{t("empty")}</p>;
  return (
    <p className="rounded-lg bg-white p-4 text-slate-700" data-testid="board-empty">
      {t("boardEmpty")}{" "}
      <Link to="/trades/new" className="font-bold text-brand-700 underline">
        {t("boardEmptyInvite")}
      </Link>
    </p>
  );
}
