ALTER TABLE "notifications" ADD COLUMN "dispatched_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every notification written so far queued its `notify` row: its channels were told (decision 048).
UPDATE "notifications" SET "dispatched_count" = "count";