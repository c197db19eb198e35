ALTER TABLE "cards" ADD COLUMN "attacks" jsonb;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "evolves_from" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "name_note" text;--> statement-breakpoint
ALTER TABLE "rarities" ADD COLUMN "trade_cost" integer;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "quiet_exempt" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "message_previews" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_quiet_exempt_check" CHECK ("notification_preferences"."quiet_exempt" <@ array['push', 'mail']::text[]);