import { Link } from "react-router";
import { ArticleList } from "#app/features/articles/components/article-list.tsx";
import { articlesMessages } from "#app/features/articles/messages.ts";
import { newestPublicArticles } from "#app/features/articles/public.server.ts";
import { listPacks, showcaseCards } from "#app/features/cards/cards.server.ts";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { HomeDeckRecipes } from "#app/features/decks/components/home-deck-recipes.tsx";
import { listHomeDecks } from "#app/features/decks/decks.server.ts";
import { NewestOffers } from "#app/features/trades/components/newest-offers.tsx";
import { listBoard } from "#app/features/trades/board.server.ts";
import { offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";
import { toListItem } from "#app/features/trades/offer-views.server.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { homeMessages } from "#app/features/home/messages.ts";
import { localeFromRequest, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = (args) => seoMeta(args);

const HOME_ARTICLES = 4;

export async function loader({ request, context }: Route.LoaderArgs) {
  // The catalogue changes only on import: a minute of staleness across instances is fine.
  const packs = await listPacks(context.db);
  const newest = packs[0];
  const featured = newest ? await showcaseCards(context.db, newest.id, 8) : [];
  const viewer = await getViewer(request, context);
  const [offers, newestArticles, deckRecipes] = await Promise.all([
    // The board's newest: its first page, kept for everyone and filtered by the viewer's blocks.
    listBoard(context.db, { viewerId: viewer?.id, limit: 4 }).then((page) => page.offers),
    newestPublicArticles(context.db, HOME_ARTICLES),
    // デッキレシピ: tier 1 first, then newest.
    listHomeDecks(context.db, 6),
  ]);
  const closedByRules = await offersClosedByRules(context.db, offers);
  const locale = localeFromRequest(request);
  const newestOffers = offers.map((offer) => ({ ...toListItem(offer, locale), ruleClosed: closedByRules.has(offer.id) }));
  return { packs: packs.slice(0, 8), totalPacks: packs.length, newest, featured, newestOffers, newestArticles, deckRecipes, now: new Date().toISOString() };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { packs, totalPacks, newest, featured, newestOffers, newestArticles, deckRecipes, now } = loaderData;
  const t = useT(homeMessages);
  const ta = useT(articlesMessages);
  const locale = useLocale();
  const packName = (pack: { nameJa: string; nameEn: string }) => (locale === "en" && pack.nameEn ? pack.nameEn : pack.nameJa);
  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-8 text-white">
        <h1 className="text-2xl font-bold sm:text-3xl">{t("heroTitle")}</h1>
        <p className="mt-3 max-w-2xl text-brand-50">{t("heroText")}</p>
        <div className="mt-5 flex flex-wrap gap-3">
          <Link to="/trades" className="rounded-full bg-white px-5 py-2 font-bold text-brand-800 hover:bg-brand-50">
            {t("toBoard")}
          </Link>
          <Link to="/cards" className="rounded-full border border-white px-5 py-2 font-bold text-white hover:bg-white/10">
            {t("toCards")}
          </Link>
        </div>
      </section>

      <NewestOffers offers={newestOffers} now={now} />

      {newestArticles.length > 0 ? (
        <section aria-labelledby="newest-articles" className="space-y-4">
          <h2 id="newest-articles" className="text-xl font-bold">
            {ta("newestHeading")}
          </h2>
          <ArticleList articles={newestArticles} columns="sm:grid-cols-2 lg:grid-cols-4" />
          <p className="text-sm">
            <Link to="/articles" className="text-brand-700 underline">
              {ta("moreArticles")}
            </Link>
          </p>
        </section>
      ) : null}

      <HomeDeckRecipes decks={deckRecipes} />

      {newest ? (
        <section aria-labelledby="newest-pack">
          <h2 id="newest-pack" className="text-xl font-bold">
            {t("newestPack", { name: packName(newest) })}
          </h2>
          <p className="text-sm text-slate-600">
            {t("newestPackFacts", { date: newest.releaseDate, count: newest.cardCount })}
          </p>
          <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-8">
            {featured.map((card, i) => (
              <li key={card.id}>
                <ListLink to={`/cards/${encodeURIComponent(card.id)}`} className="block rounded-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
                  <CardImage face={card} packName={card.packName} eager={i < 3} sizes="(min-width: 768px) 12vw, (min-width: 640px) 25vw, 33vw" />
                </ListLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="packs">
        <h2 id="packs" className="text-xl font-bold">
          {t("packs")}
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {packs.map((pack) => (
            <li key={pack.id}>
              <Link
                to={`/cards?pack=${encodeURIComponent(pack.id)}`}
                className="flex items-center justify-between rounded-lg border border-slate-200 bg-white px-4 py-3 hover:border-brand-500"
              >
                <span className="font-medium">{packName(pack)}</span>
                <span className="text-sm text-slate-600">{t("packCardCount", { count: pack.cardCount })}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm">
          <Link to="/cards" className="text-brand-700 underline">
            {t("allPacks", { count: totalPacks })}
          </Link>
        </p>
      </section>
    </div>
  );
}
