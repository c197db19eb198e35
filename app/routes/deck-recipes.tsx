import { Form, Link } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { DeckSummaryCard } from "#app/features/decks/components/deck-summary-card.tsx";
import { EnergyIcon } from "#app/features/decks/components/energy-icon.tsx";
import { listPublicDecks } from "#app/features/decks/decks.server.ts";
import { ENERGY_TYPES } from "#app/features/decks/energy.ts";
import { DeckError } from "#app/features/decks/errors.ts";
import { MAX_MISSING_FILTER } from "#app/features/decks/filters.ts";
import { DeckListQuerySchema } from "#app/features/decks/list-query.ts";
import { readQuery } from "#app/lib/input.server.ts";
import { deckListCollectionFilter } from "#app/features/decks/deck-collection.server.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { CATEGORY_LABELS } from "#app/features/decks/categories.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import { DECK_CATEGORIES, TIERS } from "#app/features/decks/rules.ts";
import type { DeckSummary } from "#app/features/decks/types.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { errorFields, requestLog } from "#app/lib/logger.server.ts";
import { SelectField } from "#app/components/ui/form-field.tsx";
import type { Route } from "./+types/deck-recipes";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { cursor: cursorParam, ...parsed } = readQuery(request, DeckListQuerySchema);
  let cursor = cursorParam;
  let page: { decks: DeckSummary[]; nextCursor: string | null } = { decks: [], nextCursor: null };
  let loadFailed = false;
  // 今作れるデッキ / あと N 枚以内 is a signed-in player's own filter (a request with a session is
  // never in the signed-out page cache); without a collection it is not offered and not applied.
  const viewer = await getViewer(request, context);
  let hasCollection = false;
  let deckIds: string[] | null = null;
  let missingByDeck = new Map<string, number>();
  try {
    if (viewer) ({ hasCollection, deckIds, missingByDeck } = await deckListCollectionFilter(context.db, viewer.id, parsed.missing));
    const listed = { ...parsed, deckIds };
    try {
      page = await listPublicDecks(context.db, listed, cursor);
    } catch (error) {
      // A damaged cursor in a shared link shows the first page rather than an error.
      if (!(error instanceof DeckError)) throw error;
      cursor = null;
      page = await listPublicDecks(context.db, listed);
    }
  } catch (error) {
    // docs/product-rules.md §8 デッキレシピの取得に失敗しました is the list's own message, not an error page.
    requestLog(context).error("deck recipes could not be read", errorFields(error));
    loadFailed = true;
  }
  const filters = { ...parsed, missing: deckIds ? parsed.missing : null };
  // The copies each listed deck lacks (only for a player with a collection).
  const missing = hasCollection ? Object.fromEntries(page.decks.flatMap((d) => (missingByDeck.has(d.id) ? [[d.id, missingByDeck.get(d.id)!]] : []))) : null;
  return { filters, hasCollection, missing, isFirstPage: !cursor, ...page, loadFailed };
}

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const title = translate(decksMessages, locale, "listTitle");
  const data = args.loaderData;
  const empty = !data || data.loadFailed || (data.isFirstPage && data.decks.length === 0);
  return seoMeta(args, {
    title,
    description: translate(decksMessages, locale, "listDescription"),
    canonicalQuery: { tier: data?.filters.tier ? String(data.filters.tier) : null, energy: data?.filters.energy, category: data?.filters.category },
    breadcrumbs: [{ name: title, path: "/deck-recipes" }],
    noindex: empty,
  });
};

export default function DeckRecipes({ loaderData }: Route.ComponentProps) {
  const { filters, decks, nextCursor, loadFailed, hasCollection, missing } = loaderData;
  const t = useT(decksMessages);
  const locale = useLocale();
  const nextParams = new URLSearchParams();
  if (filters.tier) nextParams.set("tier", String(filters.tier));
  if (filters.energy) nextParams.set("energy", filters.energy);
  if (filters.category) nextParams.set("category", filters.category);
  if (filters.missing !== null) nextParams.set("missing", String(filters.missing));
  if (nextCursor) nextParams.set("cursor", nextCursor);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{t("listTitle")}</h1>
      <Form method="get" action="/deck-recipes" className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <SelectField id="deck-filter-tier" name="tier" label={t("filterTier")} labelClassName="block text-sm font-medium" defaultValue={filters.tier ?? ""}>
          <option value="">{t("filterAny")}</option>
          {TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {t("tierBadge", { tier })}
            </option>
          ))}
        </SelectField>
        <SelectField id="deck-filter-energy" name="energy" label={t("filterEnergy")} labelClassName="block text-sm font-medium" defaultValue={filters.energy ?? ""}>
          <option value="">{t("filterAny")}</option>
          {ENERGY_TYPES.map((energy) => (
            <option key={energy.value} value={energy.value}>
              {energy[locale]}
            </option>
          ))}
        </SelectField>
        <SelectField id="deck-filter-category" name="category" label={t("filterCategory")} labelClassName="block text-sm font-medium" defaultValue={filters.category ?? ""}>
          <option value="">{t("filterAny")}</option>
          {DECK_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {t(CATEGORY_LABELS[category])}
            </option>
          ))}
        </SelectField>
        {hasCollection ? (
          <SelectField id="deck-filter-missing" name="missing" label={t("filterCollection")} labelClassName="block text-sm font-medium" defaultValue={filters.missing ?? ""}>
            <option value="">{t("filterAny")}</option>
            <option value="0">{t("filterBuildNow")}</option>
            {Array.from({ length: MAX_MISSING_FILTER }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {t("filterMissingAtMost", { count: n })}
              </option>
            ))}
          </SelectField>
        ) : null}
        <button type="submit" className="rounded-full bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
          {t("filterApply")}
        </button>
        {filters.tier || filters.energy || filters.category || filters.missing !== null ? (
          <Link to="/deck-recipes" className="py-2 text-sm text-brand-700 underline">
            {t("filterClear")}
          </Link>
        ) : null}
      </Form>
      <ul className="flex flex-wrap gap-2" aria-label={t("filterEnergy")}>
        {ENERGY_TYPES.map((energy) => (
          <li key={energy.value}>
            <Link
              to={filters.energy === energy.value ? "/deck-recipes" : `/deck-recipes?energy=${energy.value}`}
              aria-current={filters.energy === energy.value ? "true" : undefined}
              className="flex items-center gap-1 rounded-full border border-slate-300 bg-white px-3 py-1 text-sm hover:border-brand-500 aria-[current=true]:border-brand-700 aria-[current=true]:bg-brand-50"
            >
              <EnergyIcon type={energy.value} size={18} decorative />
              {energy[locale]}
            </Link>
          </li>
        ))}
      </ul>
      {loadFailed ? (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-700">
          {t("listLoadFailed")}
        </p>
      ) : decks.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("listEmpty")}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {decks.map((deck, i) => (
            <li key={deck.id}>
              <DeckSummaryCard deck={deck} eager={i < 3} missing={missing?.[deck.id] ?? null} />
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <p>
          <Link to={`/deck-recipes?${nextParams}`} className="text-brand-700 underline" rel="next">
            {t("nextPage")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
