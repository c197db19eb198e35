import { and, inArray, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { articles } from "#app/db/schema/articles.ts";
import type { RelatedRef } from "#app/features/content/types.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isArticleId = (value: string) => UUID.test(value);

/**
 * `[[article:<slug or id>]]` blocks: the public articles among `refs`, keyed by the ref as typed.
 * An unpublished or unknown article is left out, so the block says 記事が見つかりません — what a
 * reader would find behind the link (the preview shows the same).
 */
export async function publicArticleRefs(db: Db, refs: readonly string[]): Promise<Map<string, RelatedRef>> {
  const found = new Map<string, RelatedRef>();
  if (refs.length === 0) return found;
  const slugs = refs.map((ref) => ref.toLowerCase());
  const ids = refs.filter(isArticleId).map((ref) => ref.toLowerCase());
  const rows = await db
    .select({ id: articles.id, slug: articles.slug, title: articles.title, publishedAt: articles.publishedAt, createdAt: articles.createdAt, thumbnailUrl: articles.thumbnailUrl })
    .from(articles)
    .where(and(articles.isPublic, or(inArray(articles.slug, slugs), ids.length ? inArray(articles.id, ids) : undefined)));
  for (const ref of refs) {
    const key = ref.toLowerCase();
    const row = rows.find((r) => r.slug === key || r.id === key);
    if (row) found.set(ref, { href: `/articles/${row.slug}`, title: row.title, date: (row.publishedAt ?? row.createdAt).toISOString(), thumbnailUrl: row.thumbnailUrl });
  }
  return found;
}
