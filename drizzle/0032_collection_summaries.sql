CREATE TABLE "collection_summaries" (
	"user_id" text PRIMARY KEY NOT NULL,
	"owned" "bytea" DEFAULT '\x'::bytea NOT NULL,
	"spare" "bytea" DEFAULT '\x'::bytea NOT NULL,
	"wanted" "bytea" DEFAULT '\x'::bytea NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "trade_bit" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_summaries" ADD CONSTRAINT "collection_summaries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cards_trade_bit_idx" ON "cards" USING btree ("trade_bit");--> statement-breakpoint
-- The old spelling `??` of ☆☆ (docs/product-rules.md §3) is stored as ☆☆, so every card-match rule
-- (トレード候補, 何でも可, the board's matching) compares one value (docs/decisions/049); the
-- check constraint below keeps it so, and the imports already write ☆☆.
UPDATE "cards" SET "rarity" = '☆☆' WHERE "rarity" = '??';--> statement-breakpoint
UPDATE "trade_offers" o
SET "match_keys" = k."keys"
FROM (
  SELECT x."offer_id", array_agg(x.k ORDER BY x.k) AS "keys" FROM (
    SELECT c."offer_id", CASE c."side" WHEN 'give' THEN 'g:' ELSE 'w:' END || c."card_id" AS k FROM "trade_offer_cards" c
    UNION
    SELECT c."offer_id", CASE c."side" WHEN 'give' THEN 'gr:' ELSE 'wr:' END || r."rarity" FROM "trade_offer_cards" c JOIN "cards" r ON r."id" = c."card_id"
  ) x GROUP BY x."offer_id"
) k
WHERE k."offer_id" = o."id" AND o."match_keys" && ARRAY['gr:??', 'wr:??']::text[];--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_rarity_not_old_spelling" CHECK ("cards"."rarity" <> '??');--> statement-breakpoint
-- collection_summaries is derived from collection_cards, wanted_cards and collection_settings,
-- always (docs/decisions/049): triggers rewrite the bits of the (player, card) pairs a statement
-- touched, whoever wrote them (a tap, a bulk action, a CSV import, the want list, an account's
-- deletion, a script).
-- The state of one (player, card), the one rule the bitmaps hold: bit 1 owned (any copy), bit 2
-- spare (more copies than the keep count), bit 4 wanted (a want row still open — no more copies
-- than when it was wanted, as app/db/open-wants.ts says — of a card that is not spare).
CREATE FUNCTION "collection_card_state"("copies" integer, "keep" integer, "wanted_from" integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN copies > 0 THEN 1 ELSE 0 END)
       | (CASE WHEN copies > keep THEN 2 ELSE 0 END)
       | (CASE WHEN wanted_from IS NOT NULL AND copies <= wanted_from AND copies <= keep THEN 4 ELSE 0 END)
$$;--> statement-breakpoint
-- Makes and locks the summary rows of the given players who exist and have any row, in user order
-- (two statements touching the same players wait for each other instead of deadlocking).
CREATE FUNCTION "collection_summaries_lock"("players" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "collection_summaries" ("user_id")
  SELECT u."id" FROM "users" u
  WHERE u."id" = ANY(players)
    AND (EXISTS (SELECT 1 FROM "collection_cards" cc WHERE cc."user_id" = u."id")
      OR EXISTS (SELECT 1 FROM "wanted_cards" wc WHERE wc."user_id" = u."id"))
  ORDER BY u."id"
  ON CONFLICT ("user_id") DO NOTHING;
  PERFORM 1 FROM "collection_summaries" cs WHERE cs."user_id" = ANY(players) ORDER BY cs."user_id" FOR UPDATE;
END
$$;--> statement-breakpoint
-- Every bit of these players, from their rows: a keep count's change, a statement touching many
-- of a player's cards, the first fill (every user).
CREATE FUNCTION "collection_summaries_rebuild"("only_users" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The players' rows first (made when missing), locked in one order: the statement below then
  -- reads their collections after every change that held a row, never from a snapshot taken
  -- before a concurrent tap committed.
  PERFORM collection_summaries_lock(only_users);
  WITH "pairs" AS (
    SELECT cc."user_id", cc."card_id" FROM "collection_cards" cc WHERE cc."user_id" = ANY(only_users)
    UNION
    SELECT wc."user_id", wc."card_id" FROM "wanted_cards" wc WHERE wc."user_id" = ANY(only_users)
  ),
  "states" AS (
    SELECT p."user_id", c."trade_bit" AS "card_bit",
           collection_card_state(coalesce(cc."count", 0), coalesce(st."keep_count", 1), wc."owned_when_wanted") AS "card_state"
    FROM "pairs" p
    JOIN "cards" c ON c."id" = p."card_id"
    LEFT JOIN "collection_cards" cc ON cc."user_id" = p."user_id" AND cc."card_id" = p."card_id"
    LEFT JOIN "wanted_cards" wc ON wc."user_id" = p."user_id" AND wc."card_id" = p."card_id"
    LEFT JOIN "collection_settings" st ON st."user_id" = p."user_id"
  ),
  "bytes" AS (
    SELECT "user_id", "card_bit" / 8 AS "i",
           sum(CASE WHEN "card_state" & 1 <> 0 THEN 1 << ("card_bit" % 8) ELSE 0 END)::int AS "o",
           sum(CASE WHEN "card_state" & 2 <> 0 THEN 1 << ("card_bit" % 8) ELSE 0 END)::int AS "s",
           sum(CASE WHEN "card_state" & 4 <> 0 THEN 1 << ("card_bit" % 8) ELSE 0 END)::int AS "w"
    FROM "states" GROUP BY "user_id", "card_bit" / 8
  ),
  "rebuilt" AS (
    SELECT t."user_id",
           decode(string_agg(lpad(to_hex(coalesce(b."o", 0)), 2, '0'), '' ORDER BY g."i"), 'hex') AS "owned",
           decode(string_agg(lpad(to_hex(coalesce(b."s", 0)), 2, '0'), '' ORDER BY g."i"), 'hex') AS "spare",
           decode(string_agg(lpad(to_hex(coalesce(b."w", 0)), 2, '0'), '' ORDER BY g."i"), 'hex') AS "wanted"
    FROM (SELECT "user_id", max("i") AS "top" FROM "bytes" GROUP BY "user_id") t
    CROSS JOIN LATERAL generate_series(0, t."top") AS g("i")
    LEFT JOIN "bytes" b ON b."user_id" = t."user_id" AND b."i" = g."i"
    -- A player being deleted keeps no summary.
    WHERE EXISTS (SELECT 1 FROM "users" u WHERE u."id" = t."user_id")
    GROUP BY t."user_id"
  )
  INSERT INTO "collection_summaries" ("user_id", "owned", "spare", "wanted")
  SELECT "user_id", "owned", "spare", "wanted" FROM "rebuilt" ORDER BY "user_id"
  ON CONFLICT ("user_id") DO UPDATE SET "owned" = excluded."owned", "spare" = excluded."spare", "wanted" = excluded."wanted";
  -- A player with no rows left has no bit set.
  UPDATE "collection_summaries" cs SET "owned" = '\x'::bytea, "spare" = '\x'::bytea, "wanted" = '\x'::bytea
  WHERE cs."user_id" = ANY(only_users)
    AND NOT EXISTS (SELECT 1 FROM "collection_cards" cc WHERE cc."user_id" = cs."user_id")
    AND NOT EXISTS (SELECT 1 FROM "wanted_cards" wc WHERE wc."user_id" = cs."user_id");
END
$$;--> statement-breakpoint
-- The bits of the (player, card) pairs a statement touched; a player with many of them (a bulk
-- action, an import) is rebuilt whole, which is cheaper than one bit at a time.
CREATE FUNCTION "collection_summaries_apply"("pair_users" text[], "pair_cards" text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  player text;
  touched text[];
  kept integer;
  r record;
  o bytea;
  s bytea;
  w bytea;
  need integer;
BEGIN
  -- Every touched player's row, locked in user order before any of them is read or written.
  PERFORM collection_summaries_lock(ARRAY(SELECT DISTINCT p."u" FROM unnest(pair_users) AS p("u")));
  -- The players with many pairs: rebuilt together, in one statement.
  PERFORM collection_summaries_rebuild(ARRAY(
    SELECT p."u" FROM unnest(pair_users, pair_cards) AS p("u", "card") GROUP BY p."u" HAVING count(DISTINCT p."card") > 64));
  FOR player, touched IN
    SELECT p."u", array_agg(DISTINCT p."card") FROM unnest(pair_users, pair_cards) AS p("u", "card")
    GROUP BY p."u" HAVING count(DISTINCT p."card") <= 64 ORDER BY p."u"
  LOOP
    -- A player being deleted keeps no summary.
    IF NOT EXISTS (SELECT 1 FROM "users" u WHERE u."id" = player) THEN CONTINUE; END IF;
    INSERT INTO "collection_summaries" ("user_id") VALUES (player) ON CONFLICT ("user_id") DO NOTHING;
    SELECT cs."owned", cs."spare", cs."wanted" INTO o, s, w FROM "collection_summaries" cs WHERE cs."user_id" = player FOR UPDATE;
    IF NOT FOUND THEN CONTINUE; END IF;
    kept := coalesce((SELECT st."keep_count" FROM "collection_settings" st WHERE st."user_id" = player), 1);
    FOR r IN
      SELECT c."trade_bit" AS "card_bit", collection_card_state(coalesce(cc."count", 0), kept, wc."owned_when_wanted") AS "card_state"
      FROM unnest(touched) AS x("card")
      JOIN "cards" c ON c."id" = x."card"
      LEFT JOIN "collection_cards" cc ON cc."user_id" = player AND cc."card_id" = x."card"
      LEFT JOIN "wanted_cards" wc ON wc."user_id" = player AND wc."card_id" = x."card"
    LOOP
      need := r."card_bit" / 8 + 1;
      IF length(o) < need THEN o := o || decode(repeat('00', need - length(o)), 'hex'); END IF;
      IF length(s) < need THEN s := s || decode(repeat('00', need - length(s)), 'hex'); END IF;
      IF length(w) < need THEN w := w || decode(repeat('00', need - length(w)), 'hex'); END IF;
      o := set_bit(o, r."card_bit", r."card_state" & 1);
      s := set_bit(s, r."card_bit", (r."card_state" >> 1) & 1);
      w := set_bit(w, r."card_bit", (r."card_state" >> 2) & 1);
    END LOOP;
    UPDATE "collection_summaries" SET "owned" = o, "spare" = s, "wanted" = w WHERE "user_id" = player;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE FUNCTION "collection_summaries_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_summaries_apply(array_agg("user_id"), array_agg("card_id")) FROM "changed_rows";
  RETURN NULL;
END
$$;--> statement-breakpoint
-- An update may move a row to another player or card: the pairs of the old rows and of the new.
CREATE FUNCTION "collection_summaries_sync_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_summaries_apply(array_agg(x."user_id"), array_agg(x."card_id"))
  FROM (SELECT "user_id", "card_id" FROM "old_rows" UNION SELECT "user_id", "card_id" FROM "changed_rows") x;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "collection_cards_summary_insert" AFTER INSERT ON "collection_cards"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync"();--> statement-breakpoint
CREATE TRIGGER "collection_cards_summary_update" AFTER UPDATE ON "collection_cards"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync_moved"();--> statement-breakpoint
CREATE TRIGGER "collection_cards_summary_delete" AFTER DELETE ON "collection_cards"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync"();--> statement-breakpoint
CREATE TRIGGER "wanted_cards_summary_insert" AFTER INSERT ON "wanted_cards"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync"();--> statement-breakpoint
CREATE TRIGGER "wanted_cards_summary_update" AFTER UPDATE ON "wanted_cards"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync_moved"();--> statement-breakpoint
CREATE TRIGGER "wanted_cards_summary_delete" AFTER DELETE ON "wanted_cards"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "collection_summaries_sync"();--> statement-breakpoint
-- The keep count decides every spare and wanted bit of the player.
CREATE FUNCTION "collection_summaries_keep_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM collection_summaries_rebuild(ARRAY[OLD."user_id"]);
  ELSE
    PERFORM collection_summaries_rebuild(ARRAY[NEW."user_id"]);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "collection_settings_summary_insert" AFTER INSERT OR DELETE ON "collection_settings"
  FOR EACH ROW EXECUTE FUNCTION "collection_summaries_keep_changed"();--> statement-breakpoint
CREATE TRIGGER "collection_settings_summary_update" AFTER UPDATE OF "keep_count" ON "collection_settings"
  FOR EACH ROW WHEN (OLD."keep_count" IS DISTINCT FROM NEW."keep_count") EXECUTE FUNCTION "collection_summaries_keep_changed"();--> statement-breakpoint
SELECT collection_summaries_rebuild(ARRAY(SELECT "id" FROM "users"));
