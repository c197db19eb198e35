ALTER TABLE "chat_rooms" ADD COLUMN "owner_replied_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chat_rooms_owner_created_idx" ON "chat_rooms" USING btree ("owner_id","created_at");--> statement-breakpoint
-- Rooms from before the column: the owner's first message or step, from the stored chat.
UPDATE "chat_rooms" SET "owner_replied_at" = f."first_at"
FROM (
  SELECT m."room_id", min(m."created_at") AS "first_at"
  FROM "chat_messages" m JOIN "chat_rooms" o ON o."id" = m."room_id" AND m."sender_id" = o."owner_id"
  GROUP BY m."room_id"
) f
WHERE f."room_id" = "chat_rooms"."id" AND "chat_rooms"."owner_replied_at" IS NULL;
