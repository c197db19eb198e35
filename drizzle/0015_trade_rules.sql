CREATE TABLE "trade_rule_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"target" text NOT NULL,
	"tradeable" boolean NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"note" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_rule_changes_scope_check" CHECK ("trade_rule_changes"."scope" in ('rarity', 'pack'))
);
--> statement-breakpoint
ALTER TABLE "trade_rule_changes" ADD CONSTRAINT "trade_rule_changes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_rule_changes_target_idx" ON "trade_rule_changes" USING btree ("scope","target","effective_at");--> statement-breakpoint
-- Since the 2025 update ☆2 (SR/SAR) cards trade like ☆1 (docs/decisions/018): the catalogue's
-- default changes; later changes are rows of trade_rule_changes.
UPDATE "rarities" SET "tradeable" = true WHERE "code" = '☆☆';
