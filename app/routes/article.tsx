import { HttpError, pageError } from "#app/lib/api.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { Link, redirect } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { categoryLabel } from "#app/features/articles/categories.ts";
import { ArticleList } from "#app/features/articles/components/article-list.tsx";
import { ArticleThumbnail } from "#app/features/articles/components/article-thumbnail.tsx";
import { tokyoDate } from "#app/lib/tokyo-time.ts";
import { articlesMessages } from "#app/features/articles/messages.ts";
import { getArticlePreview, getPublicArticle } from "#app/features/articles/public.server.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { ShareButtons } from "#app/features/share/components/share-buttons.tsx";
import { articleShareText } from "#app/features/share/share-text.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { SITE_NAME, seoMeta } from "#app/lib/seo.ts";
import { StoredContent } from "#app/features/content/components/content-body.tsx";
import { contentCards } from "#app/features/content/refs.server.ts";
import { storedHtml } from "#app/lib/stored-html.server.ts";
import type { ArticleDetail } from "#app/features/articles/types.ts";
import type { Route } from "./+types/article";

/**
 * /articles/{slug or id}: a public article. The id URL (or any other spelling) answers 301 to the
 * slug URL; unknown or unpublished is a real 404, except for administrators, who see a private
 * article as a clearly marked preview that search engines are told not to index.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ref = params.id;
  const article = await getPublicArticle(context.db, ref);
  if (article) {
    if (ref !== article.slug) throw redirect(`/articles/${article.slug}`, 301);
    return { article: await forPage(context, article), preview: false };
  }
  const viewer = await getViewer(request, context);
  const preview = viewer?.isAdmin ? await getArticlePreview(context.db, ref) : null;
  if (!preview) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  return { article: await forPage(context, preview), preview: true };
}

/** What the page shows of an article: its body sent once (lib/stored-html) with its card blocks' cards, and no field it never reads. */
async function forPage(context: Route.LoaderArgs["context"], article: ArticleDetail) {
  const { html, isPublic: _isPublic, createdAt: _createdAt, previous, next, ...shown } = article;
  const neighbour = (item: ArticleDetail["previous"]) => (item ? { slug: item.slug, title: item.title } : null);
  return { ...shown, previous: neighbour(previous), next: neighbour(next), body: storedHtml(context, "article-body", html), cards: await contentCards(context.db, html) };
}

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const list = translate(articlesMessages, locale, "pageTitle");
  const article = args.loaderData?.article;
  if (!article) return seoMeta(args, { title: translate(articlesMessages, locale, "errNotFound"), noindex: true });
  const root = args.matches.find((m) => m?.id === "root")?.loaderData as { site?: { url: string } } | undefined;
  const base = root?.site?.url ?? "";
  const url = `${base}/articles/${article.slug}`;
  const image = article.thumbnailUrl ? (/^https?:/i.test(article.thumbnailUrl) ? article.thumbnailUrl : base + article.thumbnailUrl) : undefined;
  return seoMeta(
    { ...args, location: { ...args.location, pathname: `/articles/${article.slug}` } },
    {
      title: article.title,
      description: article.metaDescription || undefined,
      keywords: article.keywords || undefined,
      image: article.thumbnailUrl,
      type: "article",
      breadcrumbs: [
        { name: list, path: "/articles" },
        { name: categoryLabel(article.category, locale), path: `/articles?category=${article.category}` },
        { name: article.title, path: `/articles/${article.slug}` },
      ],
      noindex: args.loaderData?.preview,
      jsonLd: [
        {
          "@context": "https://schema.org",
          "@type": "Article",
          headline: article.title.slice(0, 110),
          ...(article.metaDescription ? { description: article.metaDescription } : {}),
          ...(image ? { image: [image] } : {}),
          datePublished: article.publishedAt,
          dateModified: article.updatedAt > article.publishedAt ? article.updatedAt : article.publishedAt,
          inLanguage: "ja",
          articleSection: categoryLabel(article.category, "ja"),
          ...(article.keywords ? { keywords: article.keywords } : {}),
          mainEntityOfPage: { "@type": "WebPage", "@id": url },
          author: { "@type": "Organization", name: SITE_NAME, url: `${base}/` },
          publisher: { "@type": "Organization", name: SITE_NAME, url: `${base}/`, logo: { "@type": "ImageObject", url: `${base}/og-default.png` } },
        },
      ],
    },
  );
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article, preview } = loaderData;
  const t = useT(articlesMessages);
  const locale = useLocale();
  const category = categoryLabel(article.category, locale);
  const updated = article.updatedAt.slice(0, 10) !== article.publishedAt.slice(0, 10) && article.updatedAt > article.publishedAt;
  return (
    <article className="mx-auto max-w-3xl space-y-6">
      {preview ? (
        <p role="status" className="rounded-md border-2 border-amber-400 bg-amber-50 px-4 py-3 font-bold text-amber-900">
          {t("previewBanner")}
        </p>
      ) : null}
      <header className="space-y-3">
        <p className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <Link to={`/articles?category=${article.category}`} className="rounded-full bg-brand-50 px-3 py-0.5 font-bold text-brand-800 hover:bg-brand-100">
            {category}
          </Link>
          <span>
            {t("published")} <time dateTime={article.publishedAt}>{tokyoDate(article.publishedAt, locale)}</time>
          </span>
          {updated ? (
            <span>
              {t("updated")} <time dateTime={article.updatedAt}>{tokyoDate(article.updatedAt, locale)}</time>
            </span>
          ) : null}
        </p>
        <h1 className="text-2xl font-bold leading-snug sm:text-3xl">{article.title}</h1>
      </header>
      <ArticleThumbnail url={article.thumbnailUrl} category={article.category} label={category} eager />
      <StoredContent value={article.body} cards={article.cards} />
      {preview ? null : <ShareButtons path={`/articles/${article.slug}`} text={articleShareText(locale, { title: article.title, categoryLabel: category })} />}
      {article.previous || article.next ? (
        <nav aria-label={t("paging")} className="grid gap-3 sm:grid-cols-2">
          {article.previous ? (
            <Link to={`/articles/${article.previous.slug}`} rel="prev" className="rounded-lg border border-slate-200 bg-white p-3 hover:border-brand-500">
              <span className="block text-xs text-slate-600">← {t("previousArticle")}</span>
              <span className="font-medium">{article.previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {article.next ? (
            <Link to={`/articles/${article.next.slug}`} rel="next" className="rounded-lg border border-slate-200 bg-white p-3 text-right hover:border-brand-500">
              <span className="block text-xs text-slate-600">{t("nextArticle")} →</span>
              <span className="font-medium">{article.next.title}</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
      {article.related.length > 0 ? (
        <section aria-labelledby="related-articles" className="space-y-3">
          <h2 id="related-articles" className="text-xl font-bold">
            {t("relatedHeading")}
          </h2>
          <ArticleList articles={article.related} columns="sm:grid-cols-2" />
        </section>
      ) : null}
      <p>
        <Link to="/articles" className="text-brand-700 underline">
          {t("backToList")}
        </Link>
      </p>
    </article>
  );
}
