import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** docs/product-rules.md §6 article categories, in their order (the labels live in the articles feature). */
import { ARTICLE_CATEGORIES, type ArticleCategory } from "#app/db/article-categories.ts";

export { ARTICLE_CATEGORIES, type ArticleCategory };

/**
 * docs/product-rules.md §3 Article, docs/architecture.md "Data": the text as typed (`source`) and the sanitised HTML served
 * (`html`, made by the one formatter on save). docs/product-rules.md's doubled SEO fields have one reading
 * here: `keywords` + `meta_description`. `revision` grows on every write, so a save made from
 * an outdated editor is refused instead of overwriting someone else's (optimistic concurrency).
 * `published_at` is the first time the article went public: the public order and feed date.
 */
export const articles = pgTable(
  "articles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    category: text("category").$type<ArticleCategory>().notNull(),
    source: text("source").notNull(),
    html: text("html").notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    thumbnailUrl: text("thumbnail_url"),
    keywords: text("keywords").notNull().default(""),
    metaDescription: text("meta_description").notNull().default(""),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    revision: integer("revision").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("articles_slug_key").on(t.slug),
    // The public list, the feed and the sitemap: public articles newest first (optionally per category).
    index("articles_public_idx").on(t.publishedAt.desc(), t.id.desc()).where(sql`${t.isPublic}`),
    index("articles_public_category_idx").on(t.category, t.publishedAt.desc(), t.id.desc()).where(sql`${t.isPublic}`),
    index("articles_created_idx").on(t.createdAt.desc(), t.id.desc()),
    check("articles_category_check", sql`${t.category} in ('news', 'maintenance', 'event', 'guide', 'deck-recipe')`),
    check("articles_slug_check", sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);
