import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { TradeRulesSummary } from "#app/features/trades/components/trade-rules-summary.tsx";
import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";
import { tradeRulesPageData } from "#app/features/trades/trade-rules.server.ts";
import { translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/trade-rules";

/** /trade-rules: the trade rules in force, those announced, and every change with its note. */
export async function loader({ context }: Route.LoaderArgs) {
  return tradeRulesPageData(context.db);
}

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const title = translate(tradeRulesMessages, locale, "pageTitle");
  return seoMeta(args, { title, description: translate(tradeRulesMessages, locale, "pageDescription"), breadcrumbs: [{ name: title, path: "/trade-rules" }] });
};

export default function TradeRulesPage({ loaderData }: Route.ComponentProps) {
  const t = useT(tradeRulesMessages);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{t("pageTitle")}</h1>
      <p className="text-slate-700">{t("pageIntro")}</p>
      <TradeRulesSummary data={loaderData} />
    </div>
  );
}
