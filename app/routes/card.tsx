import { Link } from "react-router";
import { getCard } from "../features/cards/cards.server";
import { CardError } from "../features/cards/errors";
import { cardArt, elementOf, isTrainerCard, STAGE_MESSAGE, trainerMessage, TYPE_MESSAGE } from "../lib/card-face";
import { CardImage } from "../features/cards/components/card-image";
import { cardsMessages } from "../features/cards/messages";
import { displayRarity } from "../lib/rarity";
import { DeckSummaryCard } from "../features/decks/components/deck-summary-card";
import { listDecksWithCard } from "../features/decks/decks.server";
import { CardTradeCounts } from "../features/trades/components/card-trade-counts";
import { offerCountsForCard } from "../features/trades/board.server";
import { RouteError } from "../components/ui/route-error";
import { WantButton } from "../features/notifications/components/want-button";
import { isWantedCard } from "../features/notifications/want-list.server";
import { getViewer } from "../features/users/session.server";
import { withPageErrors } from "../lib/api.server";
import { localeFromRequest, translate, useLocale, useT } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta, type SiteHead } from "../lib/seo";
import type { Route } from "./+types/card";

export const loader = withPageErrors(async function loader({ params, request, context }: Route.LoaderArgs) {
  const card = await getCard(context.db, params.cardId);
  const locale = localeFromRequest(request);
  if (!card) throw new CardError("not_found");
  const packNames = card.packs.map((p) => (locale === "en" ? p.nameEn : p.nameJa)).join("、");
  return {
    card,
    // og:image and the JSON-LD image: the largest art by the one art rule (none → the site's image).
    image: cardArt(card, context.env.cardImageBaseUrl)?.full ?? null,
    tradeCounts: await offerCountsForCard(context.db, card.id),
    decks: await listDecksWithCard(context.db, card.id),
    // ほしいカード: null signed out (the signed-out page stays the same for everyone and cacheable).
    wanted: await getViewer(request, context).then((viewer) => (viewer && card.tradeable ? isWantedCard(context.db, viewer.id, card.id) : null)),
    title: card.name,
    description: translate(cardsMessages, locale, "detailDescription", {
      name: card.name,
      rarity: displayRarity(card.rarity),
      packs: packNames,
    }),
  };
});

export const meta: Route.MetaFunction = (args) => {
  const { data } = args;
  const locale = localeOfMatches(args.matches);
  const database = translate(cardsMessages, locale, "pageTitle");
  const pack = data?.card.packs[0];
  const base = (args.matches.find((m) => m?.id === "root")?.loaderData as { site?: SiteHead } | undefined)?.site?.url ?? "";
  return seoMeta(args, {
    title: data?.title,
    description: data?.description,
    image: data?.image,
    breadcrumbs: [
      { name: database, path: "/cards" },
      ...(pack ? [{ name: locale === "en" ? pack.nameEn : pack.nameJa, path: `/cards?pack=${encodeURIComponent(pack.id)}` }] : []),
      ...(data ? [{ name: data.title, path: `/cards/${encodeURIComponent(data.card.id)}` }] : []),
    ],
    noindex: !data,
    jsonLd: data ? [cardJsonLd(data, base, locale)] : [],
  });
};

/** The card as a schema.org CreativeWork: names, picture, set number, rarity and the packs it is in. */
function cardJsonLd(data: Route.ComponentProps["loaderData"], base: string, locale: "ja" | "en"): Record<string, unknown> {
  const { card } = data;
  const abs = (url: string) => (/^https?:\/\//.test(url) ? url : `${base}${url}`);
  return {
    "@context": "https://schema.org",
    "@type": "CreativeWork",
    name: data.title,
    ...(card.nameEn && card.nameEn !== card.name ? { alternateName: card.nameEn } : {}),
    description: data.description,
    url: `${base}/cards/${encodeURIComponent(card.id)}`,
    inLanguage: locale,
    genre: "Pokémon TCG Pocket",
    ...(data.image ? { image: abs(data.image) } : {}),
    ...(card.setCode && card.number !== null ? { identifier: `${card.setCode} ${String(card.number).padStart(3, "0")}` } : {}),
    ...(card.rarity ? { keywords: displayRarity(card.rarity) } : {}),
    isPartOf: card.packs.map((p) => ({ "@type": "CreativeWorkSeries", name: locale === "en" ? p.nameEn : p.nameJa, url: `${base}/cards?pack=${encodeURIComponent(p.id)}` })),
  };
}

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
      <div className="grid gap-6 sm:grid-cols-[minmax(0,20rem)_1fr]">
        <div className="mx-auto w-64 sm:w-full">
          <CardImage
            face={card}
            packName={firstPack ? (locale === "en" ? firstPack.nameEn : firstPack.nameJa) : ""}
            eager
            sizes="(min-width: 640px) 320px, 256px"
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
            <CardFacts card={card} />
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
            {loaderData.wanted !== null ? <WantButton cardId={card.id} wanted={loaderData.wanted} returnTo={`/cards/${card.id}`} /> : null}
          </section>
        </div>
      </div>
      {loaderData.decks.length ? (
        <section aria-labelledby="card-decks" className="space-y-3">
          <h2 id="card-decks" className="text-xl font-bold">
            {t("decksUsing")}
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {loaderData.decks.map((deck) => (
              <li key={deck.id}>
                <DeckSummaryCard deck={deck} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

/** A missing card keeps the site's localised 404 page; the header and footer stay. */
export function ErrorBoundary() {
  return <RouteError />;
}

/** Type, HP, stage, weakness and retreat cost; what the catalogue does not know reads —. */
function CardFacts({ card }: { card: Route.ComponentProps["loaderData"]["card"] }) {
  const t = useT(cardsMessages);
  const unknown = t("unknownValue");
  if (isTrainerCard(card)) {
    return (
      <>
        <dt className="font-medium text-slate-600">{t("cardKindLabel")}</dt>
        <dd>{t(trainerMessage(card.cardType))}</dd>
      </>
    );
  }
  const weakness = card.weakness ? elementOf({ element: card.weakness }) : null;
  const stage = card.stage ? STAGE_MESSAGE[card.stage] : undefined;
  return (
    <>
      <dt className="font-medium text-slate-600">{t("typeLabel")}</dt>
      <dd>{card.element ? t(TYPE_MESSAGE[elementOf(card)]) : unknown}</dd>
      <dt className="font-medium text-slate-600">{t("hpLabel")}</dt>
      <dd>{card.hp ?? unknown}</dd>
      <dt className="font-medium text-slate-600">{t("stageLabel")}</dt>
      <dd>{stage ? t(stage) : unknown}</dd>
      <dt className="font-medium text-slate-600">{t("weaknessLabel")}</dt>
      <dd>{weakness ? t(TYPE_MESSAGE[weakness]) : unknown}</dd>
      <dt className="font-medium text-slate-600">{t("retreatLabel")}</dt>
      <dd>{card.retreatCost ?? unknown}</dd>
    </>
  );
}
