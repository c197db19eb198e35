import { Link } from "react-router";
import { useLocale } from "#app/lib/i18n.tsx";
import { categoryLabel } from "#app/features/articles/categories.ts";
import { tokyoDate } from "#app/lib/tokyo-time.ts";
import type { ArticleListItem } from "#app/features/articles/types.ts";
import { ArticleThumbnail } from "./article-thumbnail";

/** Articles as cards: thumbnail (or placeholder), category, date (JST) and title, linking to the article. */
export function ArticleList({ articles, eagerCount = 0, columns = "sm:grid-cols-2 lg:grid-cols-3" }: { articles: ArticleListItem[]; eagerCount?: number; columns?: string }) {
  const locale = useLocale();
  return (
    <ul className={`grid gap-4 ${columns}`}>
      {articles.map((article, i) => {
        const category = categoryLabel(article.category, locale);
        return (
          <li key={article.id}>
            <Link to={`/articles/${article.slug}`} className="group block h-full rounded-xl border border-slate-200 bg-white p-3 shadow-sm hover:border-brand-500">
              <ArticleThumbnail url={article.thumbnailUrl} category={article.category} label={category} eager={i < eagerCount} />
              <p className="mt-3 flex items-center gap-2 text-xs text-slate-600">
                <span className="rounded-full bg-brand-50 px-2 py-0.5 font-bold text-brand-800">{category}</span>
                <time dateTime={article.publishedAt}>{tokyoDate(article.publishedAt, locale)}</time>
              </p>
              <h3 className="mt-1 font-bold leading-snug group-hover:text-brand-800">{article.title}</h3>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
