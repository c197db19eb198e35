-- A tap wrote collection_summaries_apply twice and rebuilt nobody each time (docs/decisions/049):
-- `insert … on conflict do update` fires the insert and the update triggers, one of them with an
-- empty transition table, and every call asked collection_summaries_rebuild for the players with
-- more than 64 touched cards even when there were none. PostgreSQL planned the rebuild's statement
-- for that empty list on every call (a custom plan: the list is a parameter), which was a third
-- of a tap's database time. Same rule, same bits: the apply now ends at once for no pairs and
-- rebuilds only when some player has that many.
CREATE OR REPLACE FUNCTION "collection_summaries_apply"("pair_users" text[], "pair_cards" text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  player text;
  touched text[];
  many text[];
  r record;
  o bytea;
  s bytea;
  w bytea;
  need integer;
  kept integer;
BEGIN
  IF coalesce(cardinality(pair_users), 0) = 0 THEN RETURN; END IF;
  -- Every touched player's row, locked in user order before any of them is read or written.
  PERFORM collection_summaries_lock(ARRAY(SELECT DISTINCT p."u" FROM unnest(pair_users) AS p("u")));
  -- The players with many pairs: rebuilt together, in one statement.
  many := ARRAY(SELECT p."u" FROM unnest(pair_users, pair_cards) AS p("u", "card") GROUP BY p."u" HAVING count(DISTINCT p."card") > 64);
  IF cardinality(many) > 0 THEN PERFORM collection_summaries_rebuild(many); END IF;
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
$$;
