ALTER TABLE "trade_offers" ADD COLUMN "match_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "trade_offers_open_match_keys_idx" ON "trade_offers" USING gin ("match_keys") WHERE status = 'open';--> statement-breakpoint
-- match_keys is derived from trade_offer_cards, always: one statement-level trigger per event
-- recomputes the keys of the offers a statement touched, whoever wrote the cards.
CREATE FUNCTION "trade_offers_sync_match_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "trade_offers" o
  SET "match_keys" = coalesce(
    (SELECT array_agg(CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" ORDER BY c."side", c."card_id")
     FROM "trade_offer_cards" c WHERE c."offer_id" = o."id"),
    '{}'::text[])
  WHERE o."id" IN (SELECT DISTINCT "offer_id" FROM "changed_cards");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "trade_offer_cards_match_keys_insert" AFTER INSERT ON "trade_offer_cards"
  REFERENCING NEW TABLE AS "changed_cards" FOR EACH STATEMENT EXECUTE FUNCTION "trade_offers_sync_match_keys"();--> statement-breakpoint
-- An update may move cards between offers: the offers of the old rows and of the new rows.
CREATE FUNCTION "trade_offers_sync_match_keys_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "trade_offers" o
  SET "match_keys" = coalesce(
    (SELECT array_agg(CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" ORDER BY c."side", c."card_id")
     FROM "trade_offer_cards" c WHERE c."offer_id" = o."id"),
    '{}'::text[])
  WHERE o."id" IN (SELECT "offer_id" FROM "old_cards" UNION SELECT "offer_id" FROM "changed_cards");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "trade_offer_cards_match_keys_update" AFTER UPDATE ON "trade_offer_cards"
  REFERENCING OLD TABLE AS "old_cards" NEW TABLE AS "changed_cards" FOR EACH STATEMENT EXECUTE FUNCTION "trade_offers_sync_match_keys_moved"();--> statement-breakpoint
CREATE TRIGGER "trade_offer_cards_match_keys_delete" AFTER DELETE ON "trade_offer_cards"
  REFERENCING OLD TABLE AS "changed_cards" FOR EACH STATEMENT EXECUTE FUNCTION "trade_offers_sync_match_keys"();--> statement-breakpoint
UPDATE "trade_offers" o
SET "match_keys" = k."keys"
FROM (
  SELECT c."offer_id", array_agg(CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" ORDER BY c."side", c."card_id") AS "keys"
  FROM "trade_offer_cards" c GROUP BY c."offer_id"
) k
WHERE k."offer_id" = o."id";
