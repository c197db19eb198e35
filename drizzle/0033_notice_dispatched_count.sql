ALTER TABLE "notifications" ADD COLUMN "dispatched_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every notification written so far queued its `notify` row: its channels were told (decision 048).
-- Only the rows the sweep reads (unread message notifications) need saying so.
UPDATE "notifications" SET "dispatched_count" = "count" WHERE "kind" = 'message' AND "read_at" IS NULL;