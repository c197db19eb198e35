import { HttpError, pageError } from "#app/lib/api.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { Link } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { ARTICLE_CATEGORIES, categoryLabel, isArticleCategory, type ArticleCategory } from "#app/features/articles/categories.ts";
import { ArticleList } from "#app/features/articles/components/article-list.tsx";
import { articlesMessages } from "#app/features/articles/messages.ts";
import { listPublicArticles } from "#app/features/articles/public.server.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/articles";
import { pageUrlOf } from "#app/lib/data-url.ts";

/** /articles?category=&page= — public articles newest first; an unknown category or page is a real 404. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrlOf(request);
  const params = url.searchParams;
  const category = params.get("category") || null;
  if (category !== null && !isArticleCategory(category)) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  const pageParam = params.get("page");
  const page = pageParam === null ? 1 : /^[1-9]\d{0,5}$/.test(pageParam) ? Number(pageParam) : NaN;
  if (!Number.isInteger(page)) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  const result = await listPublicArticles(context.db, { category, page });
  if (page > result.pageCount) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  return { category, ...result };
}

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const list = translate(articlesMessages, locale, "pageTitle");
  const loaded = args.loaderData;
  const category = loaded?.category ? categoryLabel(loaded.category, locale) : null;
  const base = category ? translate(articlesMessages, locale, "categoryPageTitle", { category }) : list;
  const title = loaded && loaded.page > 1 ? `${base}（${translate(articlesMessages, locale, "pageN", { page: loaded.page })}）` : base;
  return seoMeta(args, {
    title,
    description: translate(articlesMessages, locale, "pageDescription"),
    canonicalQuery: { category: loaded?.category, page: loaded && loaded.page > 1 ? String(loaded.page) : null },
    breadcrumbs: [{ name: list, path: "/articles" }, ...(loaded?.category && category ? [{ name: category, path: `/articles?category=${loaded.category}` }] : [])],
    // An empty list has nothing to offer a search engine.
    noindex: !loaded || loaded.total === 0,
  });
};

const href = (category: ArticleCategory | null, page = 1) => {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return `/articles${search ? `?${search}` : ""}`;
};

export default function Articles({ loaderData }: Route.ComponentProps) {
  const { category, articles, page, pageCount } = loaderData;
  const t = useT(articlesMessages);
  const locale = useLocale();
  const chip = (active: boolean) =>
    `inline-block rounded-full border px-3 py-1 text-sm font-medium ${active ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:border-brand-500"}`;
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-bold">{category ? t("categoryPageTitle", { category: categoryLabel(category, locale) }) : t("pageTitle")}</h1>
      <nav aria-label={t("categoryFilter")}>
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link to={href(null)} className={chip(category === null)} aria-current={category === null ? "page" : undefined}>
              {t("allCategories")}
            </Link>
          </li>
          {ARTICLE_CATEGORIES.map((candidate) => (
            <li key={candidate}>
              <Link to={href(candidate)} className={chip(category === candidate)} aria-current={category === candidate ? "page" : undefined}>
                {categoryLabel(candidate, locale)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className="sr-only">{t("tableCaption")}</h2>
      {articles.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t("empty")}</p>
      ) : (
        <ArticleList articles={articles} eagerCount={3} />
      )}
      {pageCount > 1 ? (
        <nav aria-label={t("paging")} className="flex items-center justify-center gap-4">
          {page > 1 ? (
            <Link to={href(category, page - 1)} rel="prev" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:border-brand-500">
              {t("previousPage")}
            </Link>
          ) : null}
          <span className="text-sm text-slate-700">
            {page} / {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={href(category, page + 1)} rel="next" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:border-brand-500">
              {t("nextPage")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
