CREATE TABLE "collection_cards" (
	"user_id" text NOT NULL,
	"card_id" text NOT NULL,
	"count" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_cards_user_id_card_id_pk" PRIMARY KEY("user_id","card_id"),
	CONSTRAINT "collection_cards_count_range" CHECK ("collection_cards"."count" between 1 and 99)
);
--> statement-breakpoint
CREATE TABLE "collection_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"show_progress" boolean DEFAULT false NOT NULL,
	"use_for_trades" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_cards" ADD CONSTRAINT "collection_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cards" ADD CONSTRAINT "collection_cards_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_settings" ADD CONSTRAINT "collection_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;