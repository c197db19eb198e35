import type { SitemapSource } from "#app/features/seo/sitemap.server.ts";
import { countPublicArticles, publicArticlePaths } from "./public.server";

const CHUNK = 5_000;

/** The sitemap's articles: /articles, then every public article (lastmod = updated_at). */
export const articlesSitemapSource: SitemapSource = {
  name: "articles",
  count: async (db) => {
    const n = await countPublicArticles(db);
    return n > 0 ? n + 1 : 0;
  },
  async *urls(db, part, partSize) {
    // Position 0 of the whole list is /articles; position k is the (k-1)th article.
    let position = part * partSize;
    const end = position + partSize;
    if (position === 0) {
      yield { path: "/articles" };
      position = 1;
    }
    while (position < end) {
      const rows = await publicArticlePaths(db, position - 1, Math.min(CHUNK, end - position));
      for (const row of rows) yield { path: `/articles/${encodeURIComponent(row.slug)}`, lastmod: row.updatedAt };
      position += rows.length;
      if (rows.length < CHUNK) return;
    }
  },
};
