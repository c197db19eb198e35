import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";

/** The mark on an offer a trade-rule change closed: it stays, says why, and links to the rules. */
export function RuleClosedMark() {
  const t = useT(tradeRulesMessages);
  return (
    <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900" data-testid="rule-closed">
      {t("markedOffer")}（
      <Link to="/trade-rules" className="underline">
        {t("linkFromForm")}
      </Link>
      ）
    </p>
  );
}
