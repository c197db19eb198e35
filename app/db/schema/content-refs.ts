import { index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";

/**
 * Which stored content refers to which (docs/decisions/014): one row per `[[article:…]]` or
 * `[[deck:…]]` block in an article's or a deck's text, the reference lower-cased as typed (slug
 * or id). When a target is renamed, published, unpublished or deleted, the rows that name its old
 * or new slug or its id are the texts whose stored HTML is rendered again.
 */
export const contentRefs = pgTable(
  "content_refs",
  {
    sourceKind: text("source_kind").$type<"article" | "deck">().notNull(),
    sourceId: uuid("source_id").notNull(),
    targetKind: text("target_kind").$type<"article" | "deck">().notNull(),
    targetRef: text("target_ref").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceKind, t.sourceId, t.targetKind, t.targetRef] }), index("content_refs_target_idx").on(t.targetKind, t.targetRef)],
);
