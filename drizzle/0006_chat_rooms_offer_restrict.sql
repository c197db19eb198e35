ALTER TABLE "chat_rooms" DROP CONSTRAINT "chat_rooms_offer_id_trade_offers_id_fk";
--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_offer_id_trade_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."trade_offers"("id") ON DELETE restrict ON UPDATE no action;