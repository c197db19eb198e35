ALTER TABLE "cards" ADD COLUMN "name_reading" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "image_file" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "stored_image" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "hp" integer;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "weakness" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "retreat_cost" integer;