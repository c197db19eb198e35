// The article service's writes and admin reads (docs/product-rules.md §4 publication and article save, §7
// article reads and writes). Public reads are in public.server.ts. Routes, scripts and tests call
// these with plain arguments.
import { randomUUID } from "node:crypto";
import { isUniqueViolation } from "#app/db/sql.server.ts";
import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { articles } from "#app/db/schema/articles.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { forgetContentRefs, recordContentRefs, refreshContentDependents } from "#app/features/content/content-refs.server.ts";
import { renderStoredContent } from "#app/features/content/refs.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { isArticleId } from "./article-refs.server";
import { slugFromTitle, type ArticleCreateInput, type ArticleUpdateInput } from "./articles.schema";
import { ArticleError } from "./errors";
import type { AdminArticleRow, ArticleForEditor } from "./types";

export type { AdminArticleRow, ArticleForEditor } from "./types";


const ROW = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  category: articles.category,
  isPublic: articles.isPublic,
  thumbnailUrl: articles.thumbnailUrl,
  revision: articles.revision,
  createdAt: articles.createdAt,
  updatedAt: articles.updatedAt,
  publishedAt: articles.publishedAt,
};
const EDITOR = { ...ROW, content: articles.source, keywords: articles.keywords, metaDescription: articles.metaDescription };

type StoredRow = Omit<AdminArticleRow, "createdAt" | "updatedAt" | "publishedAt"> & { createdAt: Date; updatedAt: Date; publishedAt: Date | null };
type StoredEditorRow = StoredRow & { content: string; keywords: string; metaDescription: string };

function toRow(row: StoredRow): AdminArticleRow {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), publishedAt: row.publishedAt?.toISOString() ?? null };
}

function toEditor(row: StoredEditorRow): ArticleForEditor {
  return { ...toRow(row), content: row.content, keywords: row.keywords, metaDescription: row.metaDescription };
}

/** docs/product-rules.md §7 "all articles": the admin list, newest first; `q` narrows by title. */
export async function listAdminArticles(db: Db, options: { q?: string | null; limit?: number } = {}): Promise<AdminArticleRow[]> {
  const q = options.q?.trim().slice(0, 100);
  const rows = await db
    .select(ROW)
    .from(articles)
    .where(q ? ilike(articles.title, `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`) : undefined)
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(Math.min(Math.max(options.limit ?? 500, 1), 1000));
  return rows.map(toRow);
}

/** docs/product-rules.md §7 "an article by articles/{id}", any state (the editor). */
export async function getArticleForEditor(db: Db, id: string): Promise<ArticleForEditor | null> {
  if (!isArticleId(id)) return null;
  const [row] = await db.select(EDITOR).from(articles).where(eq(articles.id, id.toLowerCase()));
  return row ? toEditor(row) : null;
}

/** The stored HTML of a source: the one formatter with the server's lookups (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"). */
function render(db: Db, env: Env, source: string): Promise<string> {
  return renderStoredContent(db, uploadStore(env), source, { cardImageBaseUrl: env.cardImageBaseUrl });
}

/**
 * A free slug for a new article or a cleared slug: the title's ASCII words, else article-<id>
 * (a Japanese-only title still gets a working, unique slug); -2, -3 … when taken.
 */
async function generatedSlug(db: Db, title: string, id: string, exceptId?: string): Promise<string> {
  const base = slugFromTitle(title) || `article-${id.slice(0, 8)}`;
  const taken = await db
    .select({ slug: articles.slug })
    .from(articles)
    .where(and(or(eq(articles.slug, base), sql`${articles.slug} ~ ${`^${base}-[0-9]+$`}`), exceptId ? sql`${articles.id} <> ${exceptId}` : undefined));
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A slug typed by the admin must be free (a clash is a clear 409, never a 500). */
async function assertSlugFree(db: Db, slug: string, exceptId?: string): Promise<void> {
  const [row] = await db.select({ id: articles.id }).from(articles).where(eq(articles.slug, slug));
  if (row && row.id !== exceptId) throw new ArticleError("slug_taken");
}

/**
 * docs/product-rules.md §4 article save, new: createdAt and updatedAt set. A slug clash with a typed slug is
 * `slug_taken`; a generated one takes the next free number (also when another save wins the race).
 */
export async function createArticle(db: Db, env: Env, input: ArticleCreateInput, authorId: string | null): Promise<ArticleForEditor> {
  const html = await render(db, env, input.content);
  for (let attempt = 0; ; attempt++) {
    const id = randomUUID();
    if (input.slug) await assertSlugFree(db, input.slug);
    const slug = input.slug ?? (await generatedSlug(db, input.title, id));
    try {
      const now = new Date();
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(articles)
          .values({
          id,
          slug,
          title: input.title,
          category: input.category,
          source: input.content,
          html,
          isPublic: input.isPublic,
          thumbnailUrl: input.thumbnailUrl,
          keywords: input.keywords,
          metaDescription: input.metaDescription,
          authorId,
          createdAt: now,
          updatedAt: now,
          publishedAt: input.isPublic ? now : null,
        })
          .returning(EDITOR);
        await recordContentRefs(tx, "article", id, input.content);
        return inserted;
      });
      if (input.isPublic) await refreshDependents(db, env, [slug, id]);
      publishChange("content");
      return toEditor(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (input.slug || attempt >= 3) throw new ArticleError("slug_taken");
    }
  }
}

/**
 * docs/product-rules.md §4 article save, existing: only updatedAt changes (createdAt stays). The save names the
 * revision the editor loaded; if someone saved since, it is refused with `conflict` and nothing
 * is written.
 */
export async function updateArticle(db: Db, env: Env, id: string, input: ArticleUpdateInput): Promise<ArticleForEditor> {
  const before = await getArticleForEditor(db, id);
  if (!before) throw new ArticleError("not_found");
  if (before.revision !== input.revision) throw new ArticleError("conflict");
  const title = input.title ?? before.title;
  let slug = before.slug;
  if (input.slug !== undefined) {
    // Emptied: generated again from the title (the article's own slug counts as free).
    if (input.slug === null) slug = await generatedSlug(db, title, before.id, before.id);
    else if (input.slug !== before.slug) {
      await assertSlugFree(db, input.slug, before.id);
      slug = input.slug;
    }
  }
  const content = input.content ?? before.content;
  const html = input.content !== undefined ? await render(db, env, content) : undefined;
  const isPublic = input.isPublic ?? before.isPublic;
  let row: StoredEditorRow | undefined;
  try {
    row = await db.transaction(async (tx) => {
      const [updated] = await tx
      .update(articles)
      .set({
        slug,
        title,
        category: input.category,
        source: input.content,
        html,
        isPublic,
        thumbnailUrl: input.thumbnailUrl,
        keywords: input.keywords,
        metaDescription: input.metaDescription,
        updatedAt: new Date(),
        revision: sql`${articles.revision} + 1`,
        publishedAt: isPublic ? sql`coalesce(${articles.publishedAt}, now())` : undefined,
      })
      .where(and(eq(articles.id, before.id), eq(articles.revision, input.revision)))
      .returning(EDITOR);
      if (updated && input.content !== undefined) await recordContentRefs(tx, "article", updated.id, content);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ArticleError("slug_taken");
    throw error;
  }
  // Another save landed between our read and our write.
  if (!row) throw new ArticleError("conflict");
  const seenByOthers = before.isPublic || row.isPublic;
  const changedForOthers = before.isPublic !== row.isPublic || before.slug !== row.slug || before.title !== row.title || before.thumbnailUrl !== row.thumbnailUrl;
  if (seenByOthers && changedForOthers) await refreshDependents(db, env, [before.slug, row.slug, row.id]);
  publishChange("content");
  return toEditor(row);
}

/** docs/product-rules.md §4: the publish/unpublish action flips isPublic only (first publication is remembered). */
export async function setArticleVisibility(db: Db, env: Env, id: string, isPublic: boolean): Promise<AdminArticleRow> {
  if (!isArticleId(id)) throw new ArticleError("not_found");
  const [row] = await db
    .update(articles)
    .set({
      isPublic,
      // An open editor must not save the old flag back over this one.
      revision: sql`${articles.revision} + 1`,
      publishedAt: isPublic ? sql`coalesce(${articles.publishedAt}, now())` : undefined,
    })
    .where(eq(articles.id, id.toLowerCase()))
    .returning(ROW);
  if (!row) throw new ArticleError("not_found");
  await refreshDependents(db, env, [row.slug, row.id]);
  publishChange("content");
  return toRow(row);
}

export async function deleteArticle(db: Db, env: Env, id: string): Promise<void> {
  if (!isArticleId(id)) throw new ArticleError("not_found");
  const row = await db.transaction(async (tx) => {
    const [removed] = await tx.delete(articles).where(eq(articles.id, id.toLowerCase())).returning({ slug: articles.slug, id: articles.id, isPublic: articles.isPublic });
    if (removed) await forgetContentRefs(tx, "article", removed.id);
    return removed;
  });
  if (!row) throw new ArticleError("not_found");
  if (row.isPublic) await refreshDependents(db, env, [row.slug, row.id]);
  publishChange("content");
}

/**
 * Texts (articles and decks) whose related blocks point at this article by one of `refs` get their
 * stored HTML made again (features/content/content-refs.server.ts), so the block shows the
 * article as it is now — a link, or 記事が見つかりません — instead of what it was at their save.
 */
async function refreshDependents(db: Db, env: Env, refs: string[]): Promise<void> {
  await refreshContentDependents(db, { store: uploadStore(env), cardImageBaseUrl: env.cardImageBaseUrl }, "article", refs);
}
