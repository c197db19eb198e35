ALTER TABLE "cards" ADD COLUMN "import_pack_id" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "import_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "cards_import_key_idx" ON "cards" USING btree ("import_pack_id","import_key");