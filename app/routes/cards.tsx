import { pageError } from "#app/lib/api.server.ts";
import { Form, Link, useNavigate, useNavigation, useSubmit } from "react-router";
import { CardsPageQuerySchema, readCardListPage } from "#app/features/cards/card-list-page.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { CardSearch } from "#app/features/cards/components/card-search.tsx";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { cardsMessages } from "#app/features/cards/messages.ts";
import { RARITIES } from "#app/lib/rarity.ts";
import { FormField, SelectField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/cards";
import { readQuery } from "#app/lib/input.server.ts";

const FILTER_LABEL = "block text-sm font-medium";

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = localeFromRequest(request);
  try {
    return await readCardListPage(context.db, locale, readQuery(request, CardsPageQuerySchema));
  } catch (error) {
    if (error instanceof CardError) throw pageError(error, locale);
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) => {
  const { loaderData: data } = args;
  const locale = localeOfMatches(args.matches);
  const database = translate(cardsMessages, locale, "pageTitle");
  return seoMeta(args, {
    title: data?.title ?? database,
    description: data?.description,
    // The pack and rarity choose what the page lists; a search, a cursor or a page number do not.
    canonicalQuery: { pack: data?.pack.id, rarity: data?.rarity },
    breadcrumbs: data ? [{ name: database, path: "/cards" }, { name: data.pack.name, path: `/cards?pack=${encodeURIComponent(data.pack.id)}` }] : [{ name: database, path: "/cards" }],
    // A search or filter that finds nothing is not a page to index.
    noindex: !data || data.total === 0 || Boolean(data.q),
  });
};

function listUrl(params: { pack: string; rarity: string; q: string; cursor?: string; page?: number }): string {
  const search = new URLSearchParams({ pack: params.pack });
  if (params.rarity) search.set("rarity", params.rarity);
  if (params.q) search.set("q", params.q);
  if (params.cursor) search.set("cursor", params.cursor);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  return `/cards?${search}`;
}

export default function CardsPage({ loaderData }: Route.ComponentProps) {
  const { packs, pack, rarity, q, page, pageSize, cards, total, nextCursor } = loaderData;
  const t = useT(cardsMessages);
  const locale = useLocale();
  const submit = useSubmit();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const from = (page - 1) * pageSize + 1;
  const filtered = Boolean(q || rarity);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{t("pageTitle")}</h1>

      <div className="max-w-xl">
        <CardSearch label={t("searchLabel")} onSelect={(card) => navigate(`/cards/${encodeURIComponent(card.id)}`)} />
      </div>

      <Form
        method="get"
        action="/cards"
        aria-label={t("filters")}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-[2fr_1fr_2fr_auto] sm:items-end"
      >
        <SelectField
          id="cards-pack"
          name="pack"
          label={t("pack")}
          labelClassName={FILTER_LABEL}
          defaultValue={pack.id}
          key={`pack-${pack.id}`}
          onChange={(event) => submit(event.currentTarget.form)}
        >
          {packs.map((p) => (
            <option key={p.id} value={p.id}>
              {locale === "en" ? p.nameEn : p.nameJa}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="cards-rarity"
          name="rarity"
          label={t("rarity")}
          labelClassName={FILTER_LABEL}
          defaultValue={rarity}
          key={`rarity-${rarity}`}
          onChange={(event) => submit(event.currentTarget.form)}
        >
          <option value="">{t("allRarities")}</option>
          {RARITIES.map((r) => (
            <option key={r.code} value={r.code}>
              {r.code}
            </option>
          ))}
        </SelectField>
        <FormField
          id="cards-q"
          name="q"
          type="search"
          label={t("name")}
          labelClassName={FILTER_LABEL}
          defaultValue={q}
          key={`q-${q}`}
          maxLength={100}
          placeholder={t("namePlaceholder")}
        />
        <SubmitButton>{t("apply")}</SubmitButton>
      </Form>

      <section aria-labelledby="card-list-heading" aria-busy={navigation.state === "loading"}>
        <h2 id="card-list-heading" className="text-lg font-bold">
          {pack.name}
        </h2>
        {cards.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {filtered ? t("emptySearch") : t("emptyPack")}
          </p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600" aria-live="polite">
              {t("resultCount", { total, from, to: from + cards.length - 1 })}
            </p>
            <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4 md:grid-cols-6" aria-label={t("cardList")}>
              {cards.map((card, i) => (
                <li key={card.id}>
                  <ListLink
                    to={`/cards/${encodeURIComponent(card.id)}`}
                    className="block rounded-card transition-transform hover:-translate-y-0.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                  >
                    <CardImage face={card} packName={pack.name} eager={i < 6} sizes="(min-width: 768px) 16vw, (min-width: 640px) 25vw, 33vw" />
                  </ListLink>
                </li>
              ))}
            </ul>
          </>
        )}
        <nav aria-label={t("pagination")} className="mt-6 flex flex-wrap justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link to={listUrl({ pack: pack.id, rarity, q })} className="rounded-md border border-slate-300 bg-white px-4 py-2 hover:border-brand-500">
              {t("firstPage")}
            </Link>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <Link
              to={listUrl({ pack: pack.id, rarity, q, cursor: nextCursor, page: page + 1 })}
              className="rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800"
            >
              {t("nextPage")}
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}
