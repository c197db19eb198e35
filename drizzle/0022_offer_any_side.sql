ALTER TABLE "trade_offers" ADD COLUMN "give_any" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_offers" ADD COLUMN "want_any" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_offers" ADD CONSTRAINT "trade_offers_any_one_side_check" CHECK (not ("trade_offers"."give_any" and "trade_offers"."want_any"));--> statement-breakpoint
-- match_keys also names the rarities on each side ('gr:<rarity>' / 'wr:<rarity>'), so マッチ finds
-- 何でも可 offers (any card of the named side's rarities) through the same GIN index.
CREATE OR REPLACE FUNCTION "trade_offers_sync_match_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "trade_offers" o
  SET "match_keys" = coalesce(
    (SELECT array_agg(k ORDER BY k) FROM (
       SELECT CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" AS k
       FROM "trade_offer_cards" c WHERE c."offer_id" = o."id"
       UNION
       SELECT CASE c."side" WHEN 'give' THEN 'gr:' ELSE 'wr:' END || r."rarity"
       FROM "trade_offer_cards" c JOIN "cards" r ON r."id" = c."card_id" WHERE c."offer_id" = o."id"
     ) keys),
    '{}'::text[])
  WHERE o."id" IN (SELECT DISTINCT "offer_id" FROM "changed_cards");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "trade_offers_sync_match_keys_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "trade_offers" o
  SET "match_keys" = coalesce(
    (SELECT array_agg(k ORDER BY k) FROM (
       SELECT CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" AS k
       FROM "trade_offer_cards" c WHERE c."offer_id" = o."id"
       UNION
       SELECT CASE c."side" WHEN 'give' THEN 'gr:' ELSE 'wr:' END || r."rarity"
       FROM "trade_offer_cards" c JOIN "cards" r ON r."id" = c."card_id" WHERE c."offer_id" = o."id"
     ) keys),
    '{}'::text[])
  WHERE o."id" IN (SELECT "offer_id" FROM "old_cards" UNION SELECT "offer_id" FROM "changed_cards");
  RETURN NULL;
END
$$;--> statement-breakpoint
UPDATE "trade_offers" o
SET "match_keys" = k."keys"
FROM (
  SELECT x."offer_id", array_agg(x.k ORDER BY x.k) AS "keys" FROM (
    SELECT c."offer_id", CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" AS k FROM "trade_offer_cards" c
    UNION
    SELECT c."offer_id", CASE c."side" WHEN 'give' THEN 'gr:' ELSE 'wr:' END || r."rarity" FROM "trade_offer_cards" c JOIN "cards" r ON r."id" = c."card_id"
  ) x GROUP BY x."offer_id"
) k
WHERE k."offer_id" = o."id";
