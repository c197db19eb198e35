ALTER TABLE "collection_settings" ADD COLUMN "keep_count" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_settings" ADD COLUMN "trade_rarities" text[];--> statement-breakpoint
ALTER TABLE "collection_settings" ADD COLUMN "want_mode" text DEFAULT 'both' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_settings" ADD COLUMN "want_sets" text[];--> statement-breakpoint
ALTER TABLE "collection_settings" ADD CONSTRAINT "collection_settings_keep_count_range" CHECK ("collection_settings"."keep_count" between 0 and 99);--> statement-breakpoint
ALTER TABLE "collection_settings" ADD CONSTRAINT "collection_settings_want_mode_check" CHECK ("collection_settings"."want_mode" in ('missing', 'wants', 'both'));