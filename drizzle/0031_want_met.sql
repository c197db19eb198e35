ALTER TABLE "wanted_cards" ADD COLUMN "owned_when_wanted" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing wants start from what the collection holds now: none of them counts as met until more copies arrive.
UPDATE "wanted_cards" w SET "owned_when_wanted" = cc."count" FROM "collection_cards" cc WHERE cc."user_id" = w."user_id" AND cc."card_id" = w."card_id";
