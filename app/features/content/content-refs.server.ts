import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { articles } from "#app/db/schema/articles.ts";
import { contentRefs } from "#app/db/schema/content-refs.ts";
import { decks } from "#app/db/schema/decks.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { contentRefIds, MAX_REFS, renderStoredContent, type CardArtOptions } from "./refs.server";

export type ContentKind = "article" | "deck";

/** What re-rendering a stored text needs: where uploads live and where card art comes from. */
export type RenderOptions = CardArtOptions & { store: UploadStore };

type Writer = Pick<Db, "delete" | "insert">;

/**
 * Records which articles and decks `source` (the text of article/deck `sourceId`) points at, in
 * place of what it pointed at before (docs/decisions/014). Call it in the save's transaction.
 */
export async function recordContentRefs(db: Writer, sourceKind: ContentKind, sourceId: string, source: string): Promise<void> {
  await db.delete(contentRefs).where(and(eq(contentRefs.sourceKind, sourceKind), eq(contentRefs.sourceId, sourceId)));
  const ids = contentRefIds(source);
  const rows = new Map<string, { sourceKind: ContentKind; sourceId: string; targetKind: ContentKind; targetRef: string }>();
  for (const [targetKind, refs] of [["article", ids.articles], ["deck", ids.decks]] as const) {
    for (const ref of refs.slice(0, MAX_REFS)) {
      const targetRef = ref.toLowerCase();
      rows.set(`${targetKind}:${targetRef}`, { sourceKind, sourceId, targetKind, targetRef });
    }
  }
  if (rows.size) await db.insert(contentRefs).values([...rows.values()]).onConflictDoNothing();
}

/** A deleted article or deck refers to nothing any more. */
export async function forgetContentRefs(db: Writer, sourceKind: ContentKind, sourceId: string): Promise<void> {
  await db.delete(contentRefs).where(and(eq(contentRefs.sourceKind, sourceKind), eq(contentRefs.sourceId, sourceId)));
}

/**
 * A target was published, unpublished, renamed, re-slugged or deleted: every article and deck
 * whose text names it (by any of `refs`: old slug, new slug, id) gets its stored HTML rendered
 * again, so its block shows the target as it is now — a link, or 見つかりません — and the caches
 * that hold rendered content are emptied (here and, through the content relay, on other instances).
 * Returns how many texts were rendered again.
 */
export async function refreshContentDependents(db: Db, options: RenderOptions, targetKind: ContentKind, refs: readonly string[]): Promise<number> {
  const wanted = [...new Set(refs.filter(Boolean).map((ref) => ref.toLowerCase()))];
  if (!wanted.length) return 0;
  const dependents = await db
    .selectDistinct({ sourceKind: contentRefs.sourceKind, sourceId: contentRefs.sourceId })
    .from(contentRefs)
    .where(and(eq(contentRefs.targetKind, targetKind), inArray(contentRefs.targetRef, wanted)));
  const articleIds = dependents.filter((d) => d.sourceKind === "article").map((d) => d.sourceId);
  const deckIds = dependents.filter((d) => d.sourceKind === "deck").map((d) => d.sourceId);
  const render = (source: string) => renderStoredContent(db, options.store, source, { cardImageBaseUrl: options.cardImageBaseUrl });
  if (articleIds.length) {
    const rows = await db.select({ id: articles.id, source: articles.source }).from(articles).where(inArray(articles.id, articleIds));
    for (const row of rows) {
      // Only the HTML changes: a later save in an open editor still names the same revision.
      await db.update(articles).set({ html: await render(row.source) }).where(and(eq(articles.id, row.id), eq(articles.source, row.source)));
    }
  }
  if (deckIds.length) {
    const rows = await db.select({ id: decks.id, description: decks.description }).from(decks).where(inArray(decks.id, deckIds));
    for (const row of rows) {
      await db
        .update(decks)
        .set({ contentHtml: await render(row.description) })
        .where(and(eq(decks.id, row.id), sql`${decks.description} = ${row.description}`));
    }
  }
  if (dependents.length) publishChange("content");
  return dependents.length;
}
