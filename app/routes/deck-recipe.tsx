import { DeckError } from "#app/features/decks/errors.ts";
import { data, redirect } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { CATEGORY_LABELS, TIER_MEANINGS } from "#app/features/decks/categories.ts";
import { DeckCardFacts } from "#app/features/decks/components/deck-card-facts.tsx";
import { DeckCardGrid } from "#app/features/decks/components/deck-card-grid.tsx";
import { DeckEyecatch } from "#app/features/decks/components/deck-eyecatch.tsx";
import { DeckExport } from "#app/features/decks/components/deck-export.tsx";
import { DeckSummaryCard, TierBadge } from "#app/features/decks/components/deck-summary-card.tsx";
import { DeckTradeLinks } from "#app/features/decks/components/deck-trade-links.tsx";
import { EnergyIcons } from "#app/features/decks/components/energy-icon.tsx";
import { LegalityPanel } from "#app/features/decks/components/legality-panel.tsx";
import { getDeck } from "#app/features/decks/decks.server.ts";
import { addMissingDeckCardsToWants, deckAgainstCollection } from "#app/features/decks/deck-collection.server.ts";
import { DeckCollectionPanel } from "#app/features/decks/components/deck-collection-panel.tsx";
import { formError, pageError, withPageErrors } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { getViewer, requireViewer } from "#app/features/users/session.server.ts";
import { ShareImageDownload } from "#app/features/share/components/share-image-download.tsx";
import { ShareButtons } from "#app/features/share/components/share-buttons.tsx";
import { deckShareText } from "#app/features/share/share-text.ts";
import { deckShareModel, shareImagePath } from "#app/features/share/share.server.tsx";
import { energyLabel } from "#app/features/decks/energy.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import { isDeckId } from "#app/features/decks/rules.ts";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { StoredContent } from "#app/features/content/components/content-body.tsx";
import { contentCards } from "#app/features/content/refs.server.ts";
import { storedHtml } from "#app/lib/stored-html.server.ts";
import type { Route } from "./+types/deck-recipe";
import { tokyoDate } from "#app/lib/tokyo-time.ts";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = localeFromRequest(request);
  const viewer = await getViewer(request, context);
  // Admins may preview a deck that is not public (kept out of search results).
  const deck = await getDeck(context.db, params.slug, { includePrivate: Boolean(viewer?.isAdmin) });
  if (!deck) throw pageError(new DeckError("not_found"), locale);
  // One URL per deck: the id URL moves permanently to the slug URL.
  if (isDeckId(params.slug) || params.slug !== deck.slug) throw redirect(`/deck-recipes/${encodeURIComponent(deck.slug)}`, 301);
  const description = deck.metaDescription || deck.excerpt || translate(decksMessages, locale, "listDescription");
  // The page shows the description's HTML (sent once, lib/stored-html), not its text or meta fields.
  const { contentHtml, excerpt: _excerpt, metaDescription: _metaDescription, ...shown } = deck;
  // A signed-in reader's own part (never in the signed-out page cache, which only keeps requests
  // without a session): the deck's cards against their collection, when they have one.
  const collection = viewer ? await deckAgainstCollection(context.db, viewer.id, deck) : null;
  return {
    collection: collection
      ? {
          missing: collection.missing,
          missingKinds: collection.cards.filter((c) => c.missing > 0).length,
          cards: Object.fromEntries(collection.cards.map((c) => [c.cardId, { owned: c.owned, missing: c.missing }])),
        }
      : null,
    deck: { ...shown, descriptionHtml: contentHtml ? storedHtml(context, "deck-description", contentHtml) : null, descriptionCards: await contentCards(context.db, contentHtml ?? "") },
    preview: !deck.isPublic,
    description,
    // A private deck (an admin's preview) has no share image: the image route serves public decks only.
    shareImage: deck.isPublic ? shareImagePath("deck", deck.id, deckShareModel(deck)) : null,
    siteUrl: context.env.siteUrl,
  };
}

/** POST (intent want-missing): 足りないカードをほしいカードに追加 for the signed-in reader. */
export const action = withPageErrors(async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await readFormData(request);
  try {
    if (form.get("intent") !== "want-missing") throw new DeckError("invalid_request");
    const result = await addMissingDeckCardsToWants(context.db, viewer.id, params.slug, { includePrivate: viewer.isAdmin });
    return data({ ok: true as const, added: result.added.length, already: result.already.length, notTradeable: result.notTradeable.length });
  } catch (error) {
    return formError(error, localeFromRequest(request));
  }
});

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const list = translate(decksMessages, locale, "listTitle");
  const deck = args.loaderData?.deck;
  if (!deck) return seoMeta(args, { title: translate(decksMessages, locale, "notFound"), noindex: true });
  const base = args.loaderData?.siteUrl ?? "";
  const abs = (url: string) => (/^https?:/i.test(url) ? url : `${base}${url}`);
  return seoMeta(args, {
    title: deck.name,
    description: args.loaderData?.description,
    keywords: deck.keywords || undefined,
    image: args.loaderData?.shareImage ?? deck.eyecatchUrl,
    type: "article",
    breadcrumbs: [
      { name: list, path: "/deck-recipes" },
      { name: deck.name, path: `/deck-recipes/${encodeURIComponent(deck.slug)}` },
    ],
    noindex: args.loaderData?.preview,
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: deck.name,
        description: args.loaderData?.description,
        articleSection: list,
        inLanguage: "ja",
        datePublished: deck.createdAt,
        dateModified: deck.updatedAt,
        url: `${base}/deck-recipes/${encodeURIComponent(deck.slug)}`,
        ...(deck.eyecatchUrl ? { image: [abs(deck.eyecatchUrl)] } : {}),
        keywords: deck.keywords || undefined,
        mainEntity: {
          "@type": "ItemList",
          name: translate(decksMessages, locale, "cardList", { count: deck.legality.total }),
          numberOfItems: deck.cards.length,
          itemListElement: deck.cards.map((card, i) => ({ "@type": "ListItem", position: i + 1, name: `${card.count} ${card.name}`, url: `${base}/cards/${encodeURIComponent(card.cardId)}` })),
        },
      },
    ],
  });
};

export default function DeckRecipe({ loaderData }: Route.ComponentProps) {
  const { deck, preview } = loaderData;
  const t = useT(decksMessages);
  const locale = useLocale();
  return (
    <article className="space-y-8">
      {preview ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 font-bold text-amber-900">
          {t("preview")}
        </p>
      ) : null}
      <header className="space-y-3">
        <h1 className="text-2xl font-bold sm:text-3xl">{deck.name}</h1>
        <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          <div className="flex items-center gap-2">
            <dt className="sr-only">{t("filterTier")}</dt>
            <dd>
              <TierBadge tier={deck.tier} />
            </dd>
          </div>
          {deck.energyTypes.length ? (
            <div className="flex items-center gap-2">
              <dt className="font-medium text-slate-600">{t("energy")}</dt>
              <dd className="flex items-center gap-2">
                <EnergyIcons types={deck.energyTypes} size={22} />
                <span>{deck.energyTypes.map((e) => energyLabel(e, locale)).join("・")}</span>
              </dd>
            </div>
          ) : null}
          <div className="flex items-center gap-2">
            <dt className="font-medium text-slate-600">{t("category")}</dt>
            <dd>{CATEGORY_LABELS[deck.category] ? t(CATEGORY_LABELS[deck.category]) : deck.category}</dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="font-medium text-slate-600">{t("updated")}</dt>
            <dd>
              <time dateTime={deck.updatedAt}>{tokyoDate(deck.updatedAt, locale)}</time>
            </dd>
          </div>
        </dl>
        <p className="text-sm text-slate-700">
          {t("tierBadge", { tier: deck.tier })}：{t(TIER_MEANINGS[deck.tier] ?? "tier4")}
        </p>
      </header>

      <div className="mx-auto max-w-3xl">
        <DeckEyecatch name={deck.name} eyecatchUrl={deck.eyecatchUrl} energyTypes={deck.energyTypes} keyCards={deck.keyCards} eager />
      </div>

      <section aria-labelledby="deck-cards" className="space-y-4">
        <h2 id="deck-cards" className="text-xl font-bold">
          {t("cardList", { count: deck.legality.total })}
        </h2>
        <DeckCardGrid cards={deck.cards} ownership={loaderData.collection?.cards} />
      </section>

      {loaderData.collection ? <DeckCollectionPanel state={loaderData.collection} deckSlug={deck.slug} /> : null}

      <DeckCardFacts cards={deck.cards} />

      <LegalityPanel legality={deck.legality} />

      <DeckTradeLinks cards={deck.cards} />

      {deck.descriptionHtml ? (
        <section aria-labelledby="deck-description" className="space-y-2">
          <h2 id="deck-description" className="text-xl font-bold">
            {t("description")}
          </h2>
          <StoredContent value={deck.descriptionHtml} cards={deck.descriptionCards} />
        </section>
      ) : null}

      <DeckExport text={deck.exportText} textEn={deck.exportTextEn} />
      {loaderData.preview ? null : <ShareButtons path={`/deck-recipes/${encodeURIComponent(deck.slug)}`} text={deckShareText(locale, deck)} />}
      {loaderData.shareImage ? <ShareImageDownload src={loaderData.shareImage} fileName={`${deck.slug}.webp`} alt={deck.name} /> : null}

      <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <summary className="cursor-pointer font-bold">{t("tierMeaning")}</summary>
        <dl className="mt-2 space-y-1">
          {[1, 2, 3, 4].map((tier) => (
            <div key={tier} className="flex gap-2">
              <dt className="font-bold">{t("tierBadge", { tier })}</dt>
              <dd>{t(TIER_MEANINGS[tier])}</dd>
            </div>
          ))}
        </dl>
      </details>

      {deck.related.length ? (
        <section aria-labelledby="deck-related" className="space-y-3">
          <h2 id="deck-related" className="text-xl font-bold">
            {t("relatedDecks")}
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {deck.related.map((related) => (
              <li key={related.id}>
                <DeckSummaryCard deck={related} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
