-- The Shining High pack was left out of the trade picker by code (docs/product-rules.md §9), which
-- the rules page could not show. It becomes a pack rule like any other (docs/decisions/033): closed
-- from the pack's release, liftable by an administrator's later change. A database where an
-- administrator already ruled on the pack keeps what they decided.
INSERT INTO "trade_rule_changes" ("scope", "target", "tradeable", "effective_at", "note")
SELECT 'pack', 'shining-high', false, '2025-03-27T00:00:00+09:00',
  'シャイニングハイのパックのカードはトレード対象外です（サイト開設時からの取り扱い）。'
WHERE NOT EXISTS (SELECT 1 FROM "trade_rule_changes" WHERE "scope" = 'pack' AND "target" = 'shining-high');
