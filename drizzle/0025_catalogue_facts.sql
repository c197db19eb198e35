ALTER TABLE "cards" ADD COLUMN "attacks" jsonb;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "evolves_from" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "name_note" text;--> statement-breakpoint
ALTER TABLE "rarities" ADD COLUMN "trade_cost" integer;