// Public article reads (docs/product-rules.md §7 "public articles (isPublic true)"): the list, the detail page,
// the home page's 新着記事, the feed, the sitemap and GET /api/articles. Kept in the one cache per
// content version (changeVersion("content"), lib/change-bus.server.ts): a write anywhere makes the next read fresh.
import { and, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { articles } from "#app/db/schema/articles.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { changeVersion } from "#app/lib/change-bus.server.ts";
import { isIsoInstant } from "#app/lib/tokyo-time.ts";
import { sanitizeContentHtml } from "#app/features/content/refs.server.ts";
import { isArticleId } from "./article-refs.server";
import type { ArticleCategory } from "./categories";
import type { ArticleDetail, ArticleListItem } from "./types";

export type { ArticleDetail, ArticleListItem } from "./types";


export const PUBLIC_PAGE_SIZE = 12;
export const API_PAGE_SIZE = 20;
export const FEED_SIZE = 50;
const RELATED_COUNT = 4;

const cache = createCache<unknown>({ name: "articles", max: 2000, ttlMs: 60_000 });

function remember<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  return cache.remember(`${scopeOf(db)}:${changeVersion("content")}:${key}`, load) as Promise<T>;
}

const LIST = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  category: articles.category,
  thumbnailUrl: articles.thumbnailUrl,
  publishedAt: articles.publishedAt,
  createdAt: articles.createdAt,
  updatedAt: articles.updatedAt,
};

type ListRow = { id: string; slug: string; title: string; category: ArticleCategory; thumbnailUrl: string | null; publishedAt: Date | null; createdAt: Date; updatedAt: Date };

function toItem(row: ListRow): ArticleListItem {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    category: row.category,
    thumbnailUrl: row.thumbnailUrl,
    publishedAt: (row.publishedAt ?? row.createdAt).toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const visible = (category?: ArticleCategory | null): SQL => and(eq(articles.isPublic, true), category ? eq(articles.category, category) : undefined)!;
// Public articles always have published_at (set on first publication).
const NEWEST = [desc(articles.publishedAt), desc(articles.id)];

export type ArticlePage = { articles: ArticleListItem[]; total: number; page: number; pageCount: number };

/** One page (1-based) of /articles, optionally one category. */
export function listPublicArticles(db: Db, options: { category?: ArticleCategory | null; page?: number; pageSize?: number } = {}): Promise<ArticlePage> {
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const size = options.pageSize ?? PUBLIC_PAGE_SIZE;
  return remember(db, `page:${options.category ?? ""}:${page}:${size}`, async () => {
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(articles).where(visible(options.category)),
      db.select(LIST).from(articles).where(visible(options.category)).orderBy(...NEWEST).offset((page - 1) * size).limit(size),
    ]);
    const total = Number(n);
    return { articles: rows.map(toItem), total, page, pageCount: Math.max(1, Math.ceil(total / size)) };
  });
}

/** The newest public articles (home page 新着記事, the feed). */
export function newestPublicArticles(db: Db, limit: number): Promise<ArticleListItem[]> {
  return remember(db, `newest:${limit}`, async () => (await db.select(LIST).from(articles).where(visible()).orderBy(...NEWEST).limit(limit)).map(toItem));
}

export type ArticleCursorPage = { articles: ArticleListItem[]; nextCursor: string | null };

function encodeCursor(item: ArticleListItem): string {
  return Buffer.from(JSON.stringify([item.publishedAt, item.id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && typeof value[0] === "string" && isIsoInstant(value[0]) && typeof value[1] === "string" && isArticleId(value[1])) {
      return [value[0], value[1]];
    }
  } catch {
    // not a cursor
  }
  return null;
}

/** GET /api/articles: keyset pages, newest first. An unreadable cursor is null (the route answers 400). */
export async function listPublicArticlesAfter(db: Db, options: { category?: ArticleCategory | null; cursor?: string | null; limit?: number }): Promise<ArticleCursorPage | null> {
  const limit = Math.min(Math.max(options.limit ?? API_PAGE_SIZE, 1), 100);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  if (options.cursor && !after) return null;
  const rows = await db
    .select(LIST)
    .from(articles)
    .where(and(visible(options.category), after ? sql`(${articles.publishedAt}, ${articles.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : undefined))
    .orderBy(...NEWEST)
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toItem);
  return { articles: items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}

const DETAIL = { ...LIST, html: articles.html, keywords: articles.keywords, metaDescription: articles.metaDescription, isPublic: articles.isPublic };

function byRef(ref: string): SQL | undefined {
  const key = ref.toLowerCase();
  return isArticleId(key) ? or(eq(articles.id, key), eq(articles.slug, key)) : eq(articles.slug, key);
}

async function loadDetail(db: Db, ref: string, publicOnly: boolean): Promise<ArticleDetail | null> {
  if (!ref || ref.length > 200) return null;
  const [row] = await db
    .select(DETAIL)
    .from(articles)
    .where(and(byRef(ref), publicOnly ? eq(articles.isPublic, true) : undefined))
    .limit(1);
  if (!row) return null;
  const item = toItem(row);
  const inCategory = visible(row.category);
  const at = row.publishedAt ?? row.createdAt;
  const [older, newer, related] = await Promise.all([
    db
      .select(LIST)
      .from(articles)
      .where(and(inCategory, sql`(${articles.publishedAt}, ${articles.id}) < (${at.toISOString()}::timestamptz, ${row.id}::uuid)`))
      .orderBy(...NEWEST)
      .limit(1),
    db
      .select(LIST)
      .from(articles)
      .where(and(inCategory, sql`(${articles.publishedAt}, ${articles.id}) > (${at.toISOString()}::timestamptz, ${row.id}::uuid)`))
      .orderBy(articles.publishedAt, articles.id)
      .limit(1),
    db
      .select(LIST)
      .from(articles)
      .where(and(inCategory, sql`${articles.id} <> ${row.id}`))
      .orderBy(...NEWEST)
      .limit(RELATED_COUNT + 2),
  ]);
  const previous = older[0] ? toItem(older[0]) : null;
  const next = newer[0] ? toItem(newer[0]) : null;
  return {
    ...item,
    // Stored HTML is cleaned again on its way out (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"); kept with the entry, so once per version.
    html: sanitizeContentHtml(row.html),
    keywords: row.keywords,
    metaDescription: row.metaDescription,
    isPublic: row.isPublic,
    createdAt: row.createdAt.toISOString(),
    previous,
    next,
    related: related
      .map(toItem)
      .filter((a) => a.id !== previous?.id && a.id !== next?.id)
      .slice(0, RELATED_COUNT),
  };
}

/** docs/product-rules.md §2 /articles/{slug or id}: a public article, or null (unknown or not public). */
export function getPublicArticle(db: Db, ref: string): Promise<ArticleDetail | null> {
  return remember(db, `detail:${ref.toLowerCase()}`, () => loadDetail(db, ref, true));
}

/** An administrator's preview: the article in any state (never cached). */
export function getArticlePreview(db: Db, ref: string): Promise<ArticleDetail | null> {
  return loadDetail(db, ref, false);
}

/** The sitemap: how many public articles, and their URLs a chunk at a time (oldest first, stable). */
export async function countPublicArticles(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(articles).where(visible());
  return Number(n);
}

export async function publicArticlePaths(db: Db, offset: number, limit: number): Promise<{ slug: string; updatedAt: Date }[]> {
  return db.select({ slug: articles.slug, updatedAt: articles.updatedAt }).from(articles).where(visible()).orderBy(articles.publishedAt, articles.id).offset(offset).limit(limit);
}
