CREATE TABLE "content_refs" (
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"target_kind" text NOT NULL,
	"target_ref" text NOT NULL,
	CONSTRAINT "content_refs_source_kind_source_id_target_kind_target_ref_pk" PRIMARY KEY("source_kind","source_id","target_kind","target_ref")
);
--> statement-breakpoint
ALTER TABLE "decks" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "content_refs_target_idx" ON "content_refs" USING btree ("target_kind","target_ref");--> statement-breakpoint
-- Decks whose slugs differ only in case: every one but the oldest gets its id's start appended,
-- so the case-insensitive unique index below can be built.
UPDATE "decks" AS d SET "slug" = left(d."slug", 90) || '-' || left(d."id"::text, 8)
WHERE EXISTS (
  SELECT 1 FROM "decks" AS o
  WHERE lower(o."slug") = lower(d."slug") AND o."id" <> d."id" AND (o."created_at", o."id") < (d."created_at", d."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "decks_slug_lower_idx" ON "decks" USING btree (lower("slug"));--> statement-breakpoint
-- The references already stored: every [[article:…]] / [[deck:…]] line of every text. A block the
-- formatter would not read (inside a code fence) is recorded too; that only costs a re-render.
INSERT INTO "content_refs" ("source_kind", "source_id", "target_kind", "target_ref")
SELECT DISTINCT 'article', a."id", m[1], lower(m[2])
FROM "articles" AS a, regexp_matches(a."source", '\[\[(article|deck):\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,199})\s*\]\]', 'g') AS m
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "content_refs" ("source_kind", "source_id", "target_kind", "target_ref")
SELECT DISTINCT 'deck', d."id", m[1], lower(m[2])
FROM "decks" AS d, regexp_matches(d."description", '\[\[(article|deck):\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,199})\s*\]\]', 'g') AS m
ON CONFLICT DO NOTHING;
