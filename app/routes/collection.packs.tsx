import { Link } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { packChoices } from "#app/features/collection/pack-odds.server.ts";
import { packChoiceMessages } from "#app/features/collection/pack-messages.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { withPageErrors } from "#app/lib/api.server.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/collection.packs";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(packChoiceMessages, locale, "title"), description: translate(packChoiceMessages, locale, "description"), noindex: true });
};

/** /collection/packs (signed in): どのパックを引く？ for the player's missing cards. */
export const loader = withPageErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  return packChoices(context.db, viewer.id);
});

export default function CollectionPacks({ loaderData }: Route.ComponentProps) {
  const { packs, withoutRates } = loaderData;
  const t = useT(packChoiceMessages);
  const locale = useLocale();
  const percent = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const decimal = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <p>
          <Link to="/collection" className="text-sm text-brand-700 underline">
            {t("back")}
          </Link>
        </p>
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro")}</p>
      </div>
      {packs.length ? (
        <ol className="space-y-3" aria-label={t("title")}>
          {packs.map((pack, i) => (
            <li key={pack.packId} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="pack-choice">
              <h2 className="font-bold">
                <span className="mr-2 rounded-full bg-brand-700 px-2 py-0.5 text-sm text-white">{t("rank", { rank: i + 1 })}</span>
                {locale === "en" ? pack.nameEn : pack.nameJa}
              </h2>
              <p className="mt-1 text-sm">
                {t("chance", { percent: percent.format(pack.atLeastOne) })}・{t("expected", { count: decimal.format(pack.expected) })}
              </p>
              <p className="mt-1 text-sm text-slate-700">
                {pack.missing
                  ? t("missingLine", { count: pack.missing, rarities: pack.missingByRarity.map((r) => t("missingRarity", { rarity: displayRarity(r.rarity), count: r.count })).join("・") })
                  : t("complete")}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("none")}</p>
      )}
      {withoutRates ? <p className="text-sm text-slate-700">{t("withoutRates", { count: withoutRates })}</p> : null}
      <section aria-labelledby="pack-odds-assumptions" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="pack-odds-assumptions" className="font-bold">
          {t("assumptionsHeading")}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>{t("assumptionSlot")}</li>
          <li>{t("assumptionPacks")}</li>
          <li>{t("assumptionMix")}</li>
        </ul>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
