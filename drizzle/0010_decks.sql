CREATE TABLE "deck_cards" (
	"deck_id" uuid NOT NULL,
	"card_id" text NOT NULL,
	"pack_id" text,
	"count" smallint NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "deck_cards_deck_id_card_id_pk" PRIMARY KEY("deck_id","card_id"),
	CONSTRAINT "deck_cards_count_check" CHECK ("deck_cards"."count" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "decks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"content_html" text DEFAULT '' NOT NULL,
	"tier" smallint NOT NULL,
	"category" text NOT NULL,
	"energy_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"eyecatch_url" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"keywords" text DEFAULT '' NOT NULL,
	"meta_description" text DEFAULT '' NOT NULL,
	"related_deck_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"featured_order" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "decks_tier_check" CHECK ("decks"."tier" between 1 and 4),
	CONSTRAINT "decks_category_check" CHECK ("decks"."category" in ('news', 'maintenance', 'event', 'deck-recipe')),
	CONSTRAINT "decks_slug_check" CHECK ("decks"."slug" ~ '^[A-Za-z0-9_-]{1,100}$')
);
--> statement-breakpoint
ALTER TABLE "deck_cards" ADD CONSTRAINT "deck_cards_deck_id_decks_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."decks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_cards" ADD CONSTRAINT "deck_cards_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_cards" ADD CONSTRAINT "deck_cards_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decks" ADD CONSTRAINT "decks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deck_cards_card_idx" ON "deck_cards" USING btree ("card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "decks_slug_idx" ON "decks" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "decks_public_list_idx" ON "decks" USING btree ("is_public",coalesce("featured_order", 2147483647),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "decks_created_idx" ON "decks" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);