import { useCallback, useState } from "react";
import { Form, Link, useNavigate, useSearchParams } from "react-router";
import { CardSearch } from "#app/features/cards/components/card-search.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import type { CardSearchResult } from "#app/features/cards/types.ts";
import { RespondButton } from "#app/features/trades/components/respond-button.tsx";
import { OfferCard } from "#app/features/trades/components/offer-card.tsx";
import { BoardEmpty } from "#app/features/trades/components/board-empty.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { BoardQuerySchema, type BoardFilters } from "#app/features/trades/trades.schema.ts";
import type { MatchEmptyReason } from "#app/features/trades/matches.server.ts";
import { readBoardPage } from "#app/pages/board-page.server.ts";
import type { OfferChipView } from "#app/features/trades/types.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { WantChipButton } from "#app/features/notifications/components/want-button.tsx";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import { SelectField } from "#app/components/ui/form-field.tsx";
import type { Route } from "./+types/trades";
import { pageUrlOf } from "#app/lib/data-url.ts";
import { readQuery } from "#app/lib/input.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrlOf(request);
  const locale = localeFromRequest(request);
  const viewer = await getViewer(request, context);
  const { view, page, cursor, ...filters } = readQuery(request, BoardQuerySchema);
  const board = await readBoardPage(context.db, viewer?.id ?? null, locale, { view, filters, cursor: cursor ?? null, page: page ?? null });
  return {
    now: new Date().toISOString(),
    ...board,
    returnTo: url.pathname + url.search,
    title: translate(tradesMessages, locale, "boardTitle"),
    description: translate(tradesMessages, locale, "boardDescription"),
  };
}

export const meta: Route.MetaFunction = (args) => {
  const { loaderData: data } = args;
  const title = data?.title ?? translate(tradesMessages, localeOfMatches(args.matches), "boardTitle");
  // マッチ is personal and an empty board has nothing to find: neither is indexed. Filters and
  // cursors are views of the one board, whose canonical URL is /trades.
  const empty = !data || data.view === "matches" || (data.isFirstPage && data.offers.length === 0);
  return seoMeta(args, { title, description: data?.description, breadcrumbs: [{ name: title, path: "/trades" }], noindex: empty });
};

function withParams(current: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(current);
  next.delete("cursor");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `/trades?${query}` : "/trades";
}

function Filters({
  filters,
  packs,
  rarities,
  filterCards,
}: {
  filters: BoardFilters;
  packs: { id: string; name: string }[];
  rarities: string[];
  filterCards: { id: string; name: string; nameEn: string; rarity: string }[];
}) {
  const t = useT(tradesMessages);
  const locale = useLocale();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const nameOf = (id: string | undefined) => filterCards.find((c) => c.id === id);
  const pick = useCallback(
    (side: "give" | "want") => (card: CardSearchResult) => navigate(withParams(params, { [side]: card.id, view: null })),
    [navigate, params],
  );
  // On a phone the offers come first: the filters fold behind a button, the active ones stay
  // in sight as chips (each removes its filter). From md up the panel is always open.
  const [open, setOpen] = useState(false);
  const chips: { key: string; text: string; removeLabel: string; remove: Record<string, null> }[] = [];
  if (filters.giveAny?.length) {
    chips.push({ key: "giveAny", text: t("filterGiveAny", { count: filters.giveAny.length }), removeLabel: t("filterGiveAnyRemove"), remove: { giveAny: null } });
  }
  for (const side of ["give", "want"] as const) {
    const card = nameOf(filters[side]);
    if (!card) continue;
    const name = cardName(card, locale);
    chips.push({ key: side, text: `${t(side === "give" ? "filterGive" : "filterWant")}: ${name} ${displayRarity(card.rarity)}`, removeLabel: t("filterRemove", { name }), remove: { [side]: null } });
  }
  const pack = packs.find((p) => p.id === filters.pack);
  if (pack) chips.push({ key: "pack", text: `${t("filterPack")}: ${pack.name}`, removeLabel: t("filterRemove", { name: `${t("filterPack")}: ${pack.name}` }), remove: { pack: null } });
  if (filters.rarity) {
    const text = `${t("filterRarity")}: ${displayRarity(filters.rarity)}`;
    chips.push({ key: "rarity", text, removeLabel: t("filterRemove", { name: text }), remove: { rarity: null } });
  }
  return (
    <section aria-labelledby="board-filters" className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="board-filters" className="font-bold">
          {t("filters")}
        </h2>
        <button
          type="button"
          className="rounded-full border border-slate-300 px-3 py-1 text-sm font-bold md:hidden"
          aria-expanded={open}
          aria-controls="board-filter-panel"
          onClick={() => setOpen((v) => !v)}
        >
          {open ? t("filtersHide") : chips.length ? t("filtersShowActive", { count: chips.length }) : t("filtersShow")}
        </button>
      </div>
      {chips.length ? (
        <ul className="mt-2 flex flex-wrap gap-2" data-testid="filter-chips">
          {chips.map((chip) => (
            <li key={chip.key} className="flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-sm">
              <span>{chip.text}</span>
              <Link to={withParams(params, chip.remove)} aria-label={chip.removeLabel} className="px-1 font-bold text-brand-800">
                ×
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <div id="board-filter-panel" className={open ? "block" : "hidden md:block"}>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <CardSearch label={t("filterGive")} onSelect={pick("give")} searchUrl="/api/trades/picker" />
        <CardSearch label={t("filterWant")} onSelect={pick("want")} searchUrl="/api/trades/picker" />
      </div>
      <Form method="get" action="/trades" className="mt-3 flex flex-wrap items-end gap-3">
        {filters.give ? <input type="hidden" name="give" value={filters.give} /> : null}
        {filters.giveAny?.length ? <input type="hidden" name="giveAny" value={filters.giveAny.join(",")} /> : null}
        {filters.want ? <input type="hidden" name="want" value={filters.want} /> : null}
        <SelectField id="board-filter-pack" name="pack" label={t("filterPack")} labelClassName="block text-sm font-medium" defaultValue={filters.pack ?? ""}>
          <option value="">{t("filterAny")}</option>
          {packs.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="board-filter-rarity" name="rarity" label={t("filterRarity")} labelClassName="block text-sm font-medium" defaultValue={filters.rarity ?? ""}>
          <option value="">{t("filterAny")}</option>
          {rarities.map((r) => (
            <option key={r} value={r}>
              {displayRarity(r)}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="rounded-full bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
          {t("filterApply")}
        </button>
        {filters.give || filters.giveAny?.length || filters.want || filters.pack || filters.rarity ? (
          <Link to="/trades" className="py-2 text-sm text-brand-700 underline">
            {t("filterClear")}
          </Link>
        ) : null}
      </Form>
      </div>
    </section>
  );
}

/** マッチ is ranked, so it pages by number: 前のページ · n / m · 次のページ. */
function MatchPager({ page, pageCount }: { page: number; pageCount: number }) {
  const t = useT(tradesMessages);
  const to = (n: number) => (n === 1 ? "/trades?view=matches" : `/trades?view=matches&page=${n}`);
  return (
    <nav aria-label={t("matchesPages")} className="flex flex-wrap items-center gap-4">
      {page > 1 ? (
        <Link to={to(Math.min(page - 1, pageCount))} className="text-brand-700 underline" rel="prev">
          {t("prevPage")}
        </Link>
      ) : null}
      <span className="text-sm text-slate-600">{t("pageOf", { page, count: pageCount })}</span>
      {page < pageCount ? (
        <Link to={to(page + 1)} className="text-brand-700 underline" rel="next">
          {t("nextPage")}
        </Link>
      ) : null}
    </nav>
  );
}

/** An empty マッチ says what is true: no open offer, every open offer closed by a rule, or no fitting offer now. */
function MatchesEmpty({ reason }: { reason: MatchEmptyReason }) {
  const t = useT(tradesMessages);
  return (
    <p className="rounded-lg bg-white p-4 text-slate-700" data-testid="matches-empty" data-reason={reason}>
      {reason === "no_open_offer" ? (
        <>
          {t("matchesNoOpenOffer")}{" "}
          <Link to="/trades/new" className="text-brand-700 underline">
            {t("matchesNeedOffer")}
          </Link>
        </>
      ) : reason === "closed_by_rules" ? (
        <>
          {t("matchesClosedByRules")}{" "}
          <Link to="/trade-rules" className="text-brand-700 underline">
            {t("matchesSeeRules")}
          </Link>
        </>
      ) : (
        t("matchesEmpty")
      )}
    </p>
  );
}

export default function TradeBoard({ loaderData }: Route.ComponentProps) {
  const { view, offers, nextCursor, matches, viewerId, now, filters, isFirstPage, wantedCardIds, returnTo } = loaderData;
  const t = useT(tradesMessages);
  const locale = useLocale();
  const wanted = wantedCardIds ? new Set(wantedCardIds) : null;
  const wantAction = (card: OfferChipView) => (
    <WantChipButton cardId={card.cardId} name={cardName(card, locale)} wanted={wanted ? wanted.has(card.cardId) : null} returnTo={returnTo} />
  );
  const [params] = useSearchParams();
  const tabClass = (active: boolean) =>
    `rounded-t-lg border-b-2 px-4 py-2 font-bold ${active ? "border-brand-700 text-brand-800" : "border-transparent text-slate-600 hover:text-slate-900"}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("boardTitle")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("boardIntro")}</p>
        </div>
        <Link to="/trades/new" className="rounded-full bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
          {t("newOffer")}
        </Link>
      </div>

      <nav aria-label={t("boardTitle")} className="flex gap-2 border-b border-slate-200">
        <Link to="/trades" className={tabClass(view === "all")} aria-current={view === "all" ? "page" : undefined}>
          {t("tabAll")}
        </Link>
        <Link to="/trades?view=matches" className={tabClass(view === "matches")} aria-current={view === "matches" ? "page" : undefined}>
          {t("tabMatches")}
        </Link>
      </nav>

      {view === "matches" ? (
        <section aria-labelledby="matches-heading" className="space-y-4">
          <h2 id="matches-heading" className="sr-only">
            {t("tabMatches")}
          </h2>
          {!viewerId ? (
            <p>
              <Link to={`/login?redirectTo=${encodeURIComponent("/trades?view=matches")}`} className="text-brand-700 underline">
                {t("matchesLoginRequired")}
              </Link>
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-600">{t("matchesIntro")}</p>
              {matches && matches.items.length ? (
                <ul className="space-y-4">
                  {matches.items.map((match) => (
                    <li key={match.id}>
                      <OfferCard
                        offer={match}
                        now={now}
                        highlightGive={new Set(match.pairGive)}
                        highlightWant={new Set(match.pairWant)}
                        giveAction={wantAction}
                      >
                        <span className="font-bold text-brand-800">{t("fittingPairs", { count: match.fitting })}</span>
                        <RespondButton offerId={match.id} signedIn />
                      </OfferCard>
                    </li>
                  ))}
                </ul>
              ) : matches && matches.pageCount ? (
                <p className="rounded-lg bg-white p-4 text-slate-700">{t("empty")}</p>
              ) : (
                <MatchesEmpty reason={matches?.emptyReason ?? "no_match"} />
              )}
              {matches && matches.pageCount > 1 ? <MatchPager page={matches.page} pageCount={matches.pageCount} /> : null}
            </>
          )}
        </section>
      ) : (
        <>
          <Filters filters={filters} packs={loaderData.packs} rarities={loaderData.rarities} filterCards={loaderData.filterCards} />
          <section aria-labelledby="offers-heading" className="space-y-4">
            <h2 id="offers-heading" className="sr-only">
              {t("tabAll")}
            </h2>
            {offers.length ? (
              <ul className="space-y-4">
                {offers.map((offer) => (
                  <li key={offer.id}>
                    <OfferCard
                      offer={offer}
                      now={now}
                      highlightGive={filters.give || filters.giveAny?.length ? new Set([...(filters.give ? [filters.give] : []), ...(filters.giveAny ?? [])]) : undefined}
                      highlightWant={filters.want ? new Set([filters.want]) : undefined}
                      giveAction={offer.ownerId === viewerId ? undefined : wantAction}
                    >
                      {/* An offer a rule closed invites no 交渉する: its mark says why. */}
                      {offer.ownerId === viewerId ? <span>{t("yourOffer")}</span> : offer.ruleClosed ? null : <RespondButton offerId={offer.id} signedIn={Boolean(viewerId)} />}
                    </OfferCard>
                  </li>
                ))}
              </ul>
            ) : (
              <BoardEmpty filtered={!isFirstPage || Object.values(filters).some((value) => value !== undefined)} />
            )}
            <div className="flex flex-wrap gap-4">
              {!isFirstPage ? (
                <Link to={withParams(params, {})} className="text-brand-700 underline">
                  {t("firstPage")}
                </Link>
              ) : null}
              {nextCursor ? (
                <Link to={withParams(params, { cursor: nextCursor })} className="text-brand-700 underline" rel="next">
                  {t("nextPage")}
                </Link>
              ) : null}
            </div>
          </section>
        </>
      )}
    </div>
  );
}
