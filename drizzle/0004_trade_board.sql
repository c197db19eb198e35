CREATE TABLE "trade_rate_limits" (
	"user_id" text NOT NULL,
	"action" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "trade_rate_limits_user_id_action_window_start_pk" PRIMARY KEY("user_id","action","window_start")
);
--> statement-breakpoint
DROP INDEX "trade_offer_cards_card_idx";--> statement-breakpoint
ALTER TABLE "trade_rate_limits" ADD CONSTRAINT "trade_rate_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_target_idx" ON "reports" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "trade_offer_cards_card_side_offer_idx" ON "trade_offer_cards" USING btree ("card_id","side","offer_id");