import { Link } from "react-router";
import { isTrainerCard } from "#app/lib/card-face.ts";
import type { Tradeability } from "#app/features/trades/trade-rules.ts";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { CardFactRows } from "#app/features/cards/components/card-game-facts.tsx";
import { cardsMessages } from "#app/features/cards/messages.ts";
import { readCardPage } from "#app/pages/card-page.server.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { DeckSummaryCard } from "#app/features/decks/components/deck-summary-card.tsx";
import { CardTradeCounts } from "#app/features/trades/components/card-trade-counts.tsx";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { WantButton } from "#app/features/notifications/components/want-button.tsx";
import { getViewer } from "#app/features/users/session.server.ts";
import { withPageErrors } from "#app/lib/api.server.ts";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta, type SiteHead } from "#app/lib/seo.ts";
import type { Route } from "./+types/card";

export const loader = withPageErrors(async function loader({ params, request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  return readCardPage(context.db, params.cardId, viewer?.id ?? null, localeFromRequest(request), context.env.cardImageBaseUrl);
});

export const meta: Route.MetaFunction = (args) => {
  const { loaderData: data } = args;
  const locale = localeOfMatches(args.matches);
  const database = translate(cardsMessages, locale, "pageTitle");
  const pack = data?.card.packs[0];
  const base = (args.matches.find((m) => m?.id === "root")?.loaderData as { site?: SiteHead } | undefined)?.site?.url ?? "";
  return seoMeta(args, {
    title: data?.title,
    description: data?.description,
    // The card's own art when there is some; otherwise its drawn share image (name, rarity, set).
    image: data?.image ?? data?.shareImage,
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
  const { family } = loaderData;
  const setName = locale === "en" ? family.setNameEn : family.setNameJa;
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
            <dd className="font-bold text-amber-700" data-rarity-label>
              {rarityLabel ?? rarity}
            </dd>
            {card.setCode && card.number !== null ? (
              <>
                <dt className="font-medium text-slate-600">{t("setNumber")}</dt>
                <dd data-set-number>
                  <span className="font-mono">
                    {card.setCode} {String(card.number).padStart(3, "0")}
                  </span>
                  {setName && setName !== card.setCode ? <span className="ml-2 text-slate-600">{setName}</span> : null}
                </dd>
              </>
            ) : null}
            <CardFactRows card={card} />
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
          {!isTrainerCard(card) && !card.element && card.hp === null ? <p className="text-sm text-slate-600">{t("factsMissing")}</p> : null}
          {family.evolution.length > 1 ? <EvolutionLine steps={family.evolution} /> : null}
          {/* Trade board summary for this card (譲 n / 求 m) goes in this section. */}
          <section aria-labelledby="card-trades" className="rounded-lg border border-slate-200 bg-white p-4" data-card-trades={card.id}>
            <h2 id="card-trades" className="font-bold">
              {t("tradeLabel")}
            </h2>
            <CardTradeability card={card} state={loaderData.tradeability} />
            <CardTradeCounts cardId={card.id} give={loaderData.tradeCounts.give} want={loaderData.tradeCounts.want} />
            {loaderData.wanted !== null ? <WantButton cardId={card.id} wanted={loaderData.wanted} returnTo={`/cards/${card.id}`} /> : null}
          </section>
        </div>
      </div>
      {family.prints.length ? (
        <section aria-labelledby="card-prints" className="space-y-3" data-card-prints>
          <h2 id="card-prints" className="text-xl font-bold">
            {t("printsHeading")} <span className="text-base font-normal text-slate-600">{t("printsCount", { count: family.prints.length })}</span>
          </h2>
          <ul className="grid grid-cols-3 gap-3 sm:grid-cols-4 lg:grid-cols-6">
            {family.prints.map((print) => (
              <li key={print.id}>
                <Link to={`/cards/${encodeURIComponent(print.id)}`} className="block space-y-1 rounded-lg p-1 hover:bg-slate-100">
                  <CardImage face={print} packName={locale === "en" ? print.packNameEn : print.packName} sizes="(min-width: 1024px) 150px, 30vw" />
                  <span className="block text-center text-xs text-slate-700">
                    <span className="font-mono">{print.setCode} {String(print.number ?? "").padStart(3, "0")}</span> <span className="text-amber-700">{displayRarity(print.rarity)}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
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

/**
 * Type, HP, stage, weakness, the ex rule, retreat cost and attacks: only what the catalogue
 * knows. A missing type is not 無色 and the package's placeholder HP is not a value, so neither
 * is printed.
 */
/** Whether the card can be traded now under the trade rules, what closes it and until when, with the rules' page. */
function CardTradeability({ card, state }: { card: Route.ComponentProps["loaderData"]["card"]; state: Tradeability }) {
  const t = useT(cardsMessages);
  const locale = useLocale();
  let text: string;
  if (state.tradeable) text = t("tradeableYes");
  else {
    const date = state.until ? tokyoShortDateTime(state.until, locale) : null;
    if (state.scope === "rarity") text = date ? t("tradeableRarityFrom", { date }) : t("tradeableNo");
    else {
      const pack = card.packs.find((p) => p.id === state.target);
      const name = pack ? (locale === "en" ? pack.nameEn : pack.nameJa) : state.target;
      text = date ? t("tradeablePackFrom", { pack: name, date }) : t("tradeablePackNo", { pack: name });
    }
  }
  return (
    <p className="mt-1 text-sm text-slate-700" data-testid="card-tradeability" data-tradeable={state.tradeable}>
      {text}
      {state.tradeable ? null : (
        <>
          {" "}
          <Link to="/trade-rules" className="text-brand-700 underline">
            {t("tradeRulesLink")}
          </Link>
        </>
      )}
    </p>
  );
}

/** Basic → Stage 1 → Stage 2, each step a link to that Pokémon's card; this card's step is marked. */
function EvolutionLine({ steps }: { steps: Route.ComponentProps["loaderData"]["family"]["evolution"] }) {
  const t = useT(cardsMessages);
  return (
    <section aria-labelledby="card-evolution" className="rounded-lg border border-slate-200 bg-white p-4" data-evolution-line>
      <h2 id="card-evolution" className="font-bold">
        {t("evolutionLabel")}
      </h2>
      <ol className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        {steps.map((step, i) => (
          <li key={step.map((s) => s.cardId).join()} className="flex items-center gap-2">
            {i > 0 ? <span aria-hidden="true" className="text-slate-400">→</span> : null}
            <span className="flex flex-wrap gap-1">
              {step.map((s) =>
                s.current ? (
                  <span key={s.cardId} aria-current="true" className="rounded-full bg-slate-800 px-3 py-0.5 font-bold text-white">
                    {s.name}
                  </span>
                ) : (
                  <Link key={s.cardId} to={`/cards/${encodeURIComponent(s.cardId)}`} className="rounded-full border border-slate-300 px-3 py-0.5 text-brand-700 underline-offset-2 hover:border-brand-500 hover:underline">
                    {s.name}
                  </Link>
                ),
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
