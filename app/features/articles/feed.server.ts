import { escapeXml } from "#app/lib/markup.ts";
import type { Db } from "#app/db/client.server.ts";
import { SITE_NAME } from "#app/lib/seo.ts";
import { categoryLabel } from "./categories";
import { FEED_SIZE, newestPublicArticles } from "./public.server";

// Characters XML 1.0 does not allow are dropped (a title is text, but never trust it into XML).
const xml = escapeXml;

/** /articles/feed.xml: an Atom feed of the newest 50 public articles. */
export async function articlesFeed(db: Db, siteUrl: string, title: string): Promise<string> {
  const items = await newestPublicArticles(db, FEED_SIZE);
  const updated = items.reduce((max, a) => (a.updatedAt > max ? a.updatedAt : max), items[0]?.publishedAt ?? new Date(0).toISOString());
  const entries = items.map((article) => {
    const url = `${siteUrl}/articles/${encodeURIComponent(article.slug)}`;
    return [
      "  <entry>",
      `    <title>${xml(article.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <id>${xml(`${siteUrl}/articles/${article.id}`)}</id>`,
      `    <published>${article.publishedAt}</published>`,
      `    <updated>${article.updatedAt > article.publishedAt ? article.updatedAt : article.publishedAt}</updated>`,
      `    <category term="${xml(article.category)}" label="${xml(categoryLabel(article.category, "ja"))}"/>`,
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ja">',
    `  <title>${xml(title)}</title>`,
    `  <id>${xml(`${siteUrl}/articles`)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(`${siteUrl}/articles/feed.xml`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(`${siteUrl}/articles`)}"/>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${xml(SITE_NAME)}</name></author>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
