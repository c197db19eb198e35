import { Link } from "react-router";
import { getCard } from "../features/cards/cards.server";
import { CardTile } from "../features/cards/components/card-tile";
import { cardsMessages } from "../features/cards/messages";
import { displayRarity } from "../features/cards/rarity";
import { CardTradeCounts } from "../features/trades/components/card-trade-counts";
import { offerCountsForCard } from "../features/trades/trades.server";
import { localeFromRequest, translate, useLocale, useT } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/card";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const card = await getCard(context.db, params.cardId);
  const locale = localeFromRequest(request);
  if (!card) throw new Response(translate(cardsMessages, locale, "notFound"), { status: 404 });
  const packNames = card.packs.map((p) => (locale === "en" ? p.nameEn : p.nameJa)).join("、");
  return {
    card,
    tradeCounts: await offerCountsForCard(context.db, card.id),
    title: card.name,
    description: translate(cardsMessages, locale, "detailDescription", {
      name: card.name,
      rarity: displayRarity(card.rarity),
      packs: packNames,
    }),
  };
}

export const meta: Route.MetaFunction = (args) => {
  const { data } = args;
  const locale = localeOfMatches(args.matches);
  const database = translate(cardsMessages, locale, "pageTitle");
  const pack = data?.card.packs[0];
  return seoMeta(args, {
    title: data?.title,
    description: data?.description,
    image: data?.card.imageUrl || null,
    breadcrumbs: [
      { name: database, path: "/cards" },
      ...(pack ? [{ name: locale === "en" ? pack.nameEn : pack.nameJa, path: `/cards?pack=${encodeURIComponent(pack.id)}` }] : []),
      ...(data ? [{ name: data.title, path: `/cards/${encodeURIComponent(data.card.id)}` }] : []),
    ],
    noindex: !data,
  });
};

export default function CardPage({ loaderData }: Route.ComponentProps) {
  const { card } = loaderData;
  const t = useT(cardsMessages);
  const locale = useLocale();
  const firstPack = card.packs[0];
  const rarity = displayRarity(card.rarity);
  const rarityLabel = locale === "en" ? card.rarityLabelEn : card.rarityLabelJa;
  return (
    <article className="space-y-6">
      <p className="text-sm">
        <Link to={firstPack ? `/cards?pack=${encodeURIComponent(firstPack.id)}` : "/cards"} className="text-brand-700 underline">
          {t("backToList")}
        </Link>
      </p>
      <div className="grid gap-6 sm:grid-cols-[minmax(0,16rem)_1fr]">
        <div className="mx-auto w-48 sm:w-full">
          <CardTile
            name={card.name}
            rarity={card.rarity}
            packName={firstPack ? (locale === "en" ? firstPack.nameEn : firstPack.nameJa) : ""}
            imageUrl={card.imageUrl}
            eager
          />
        </div>
        <div className="space-y-4">
          <div>
            <h1 className="text-2xl font-bold">{card.name}</h1>
            {card.nameEn && card.nameEn !== card.name ? <p lang="en" className="text-slate-600">{card.nameEn}</p> : null}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-600">{t("rarityLabel")}</dt>
            <dd>
              <span className="text-amber-700">{rarity}</span>
              {rarityLabel && rarityLabel !== rarity ? <span className="ml-2 text-slate-600">{rarityLabel}</span> : null}
            </dd>
            {card.setCode && card.number !== null ? (
              <>
                <dt className="font-medium text-slate-600">{t("setNumber")}</dt>
                <dd>
                  {card.setCode} #{card.number}
                </dd>
              </>
            ) : null}
            <dt className="font-medium text-slate-600">{t("packsLabel")}</dt>
            <dd>
              <ul className="flex flex-wrap gap-2">
                {card.packs.map((pack) => (
                  <li key={pack.id}>
                    <Link
                      to={`/cards?pack=${encodeURIComponent(pack.id)}`}
                      className="inline-block rounded-full border border-slate-300 px-3 py-0.5 hover:border-brand-500"
                    >
                      {locale === "en" ? pack.nameEn : pack.nameJa}
                    </Link>
                  </li>
                ))}
              </ul>
            </dd>
          </dl>
          {/* Trade board summary for this card (譲 n / 求 m) goes in this section. */}
          <section aria-labelledby="card-trades" className="rounded-lg border border-slate-200 bg-white p-4" data-card-trades={card.id}>
            <h2 id="card-trades" className="font-bold">
              {t("tradeLabel")}
            </h2>
            <p className="mt-1 text-sm text-slate-700">{card.tradeable ? t("tradeableYes") : t("tradeableNo")}</p>
            <CardTradeCounts cardId={card.id} give={loaderData.tradeCounts.give} want={loaderData.tradeCounts.want} />
          </section>
        </div>
      </div>
    </article>
  );
}
